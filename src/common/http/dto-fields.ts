import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/**
 * The validation shapes request DTOs repeat, one decorator each. The swagger CLI plugin finds a property's
 * class-validator decorators by name, so a composite states their OpenAPI facets (`maxLength`, `pattern`) itself,
 * through `openApiFacets`; the plugin still gives the type, nullability, `required` and the doc comment. Each lists
 * its validators bottom-up, the order in which the stacked decorators it replaces were applied, so class-validator
 * checks and reports them in the same order.
 */

/** The metadata the swagger CLI plugin writes into each DTO class (`METADATA_FACTORY_NAME` of @nestjs/swagger). */
type PluginMetadataFactory = () => Record<string, Record<string, unknown>>;
const PLUGIN_FACTORY = '_OPENAPI_METADATA_FACTORY';

/**
 * OpenAPI facets of a property, added to the plugin's metadata of that property. Not `@ApiProperty`: an explicit
 * property is listed before the plugin's ones (the document would reorder members) and is not carried into
 * `PartialType`/`OmitType` copies, whereas the plugin's metadata is, in declaration order. Without the plugin (unit
 * tests) there is no document and nothing to add.
 */
function openApiFacets(facets: Record<string, unknown>): PropertyDecorator {
  return (target, key) => {
    const cls = target.constructor as unknown as Record<string, PluginMetadataFactory | undefined>;
    const factory = Object.hasOwn(cls, PLUGIN_FACTORY) ? cls[PLUGIN_FACTORY] : undefined;
    if (!factory || typeof key !== 'string') return;
    cls[PLUGIN_FACTORY] = () => {
      const metadata = factory();
      return { ...metadata, [key]: { ...metadata[key], ...facets } };
    };
  };
}

/** An optional string of at most `max` characters (null passes where the property's type allows it). */
export function OptionalText(max: number): PropertyDecorator {
  return applyDecorators(MaxLength(max), IsString(), IsOptional(), openApiFacets({ maxLength: max }));
}

/** An optional boolean (null passes where the property's type allows it: "no change" on updates). */
export function OptionalBoolean(): PropertyDecorator {
  return applyDecorators(IsBoolean(), IsOptional());
}

/** A string with a non-blank character, at most `max` long; a blank one is 422 `<member> must not be blank`. */
export function NonBlankText(member: string, max: number): PropertyDecorator {
  return applyDecorators(
    MaxLength(max),
    Matches(/\S/, { message: `${member} must not be blank` }),
    IsString(),
    openApiFacets({ maxLength: max, pattern: '\\S' }),
  );
}

/** `NonBlankText` that may be omitted (updates). */
export function OptionalNonBlankText(member: string, max: number): PropertyDecorator {
  return applyDecorators(NonBlankText(member, max), IsOptional());
}
