import { applyDecorators, SetMetadata, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export const ENVELOPE_KEY = 'envelope:member';

/**
 * Names the one member a successful JSON response is wrapped in: `@Envelope('collections', [CollectionDto])`.
 * With a type, the OpenAPI document shows the envelope (`{collections: CollectionDto[]}`), not the bare payload.
 */
export function Envelope(member: string, type?: Type | [Type], status = 200): MethodDecorator & ClassDecorator {
  const decorators: Array<ClassDecorator | MethodDecorator | PropertyDecorator> = [SetMetadata(ENVELOPE_KEY, member)];
  if (type) {
    const model = Array.isArray(type) ? type[0] : type;
    const ref = { $ref: getSchemaPath(model) };
    decorators.push(
      ApiExtraModels(model),
      ApiResponse({
        status,
        description: `{${member}}`,
        schema: { type: 'object', required: [member], properties: { [member]: Array.isArray(type) ? { type: 'array', items: ref } : ref } },
      }),
    );
  }
  return applyDecorators(...decorators);
}
