import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AppError } from '../../common/http/app-error.js';
import { IMPORT_SCHEMAS } from './import-schema.js';

/**
 * Checks a body against one of the catalogue's published schemas (`import-schema.ts`): the import document, and the
 * admin API's product and variant bodies, which are the same member schemas. A violation is a 422 naming the first
 * bad member by its path from `root` (`products[3].variants[0].price`, `product.variants[0].price`, `variant.color`).
 */
export type CatalogueSchema = 'CatalogueImportDocument' | 'ImportProduct' | 'ImportVariant' | 'AdminProductCreate' | 'AdminVariantCreate';

const compiled = new Map<CatalogueSchema, ValidateFunction>();
let ajv: Ajv2020 | undefined;

function validator(name: CatalogueSchema): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: false });
      ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) });
    }
    v = ajv.compile({ $id: `catalogue-${name}.json`, components: { schemas: IMPORT_SCHEMAS }, $ref: `#/components/schemas/${name}` });
    compiled.set(name, v);
  }
  return v;
}

/** Throws 422 naming the first member of `body` the schema refuses. */
export function checkCatalogueBody(name: CatalogueSchema, body: unknown, root = ''): void {
  const validate = validator(name);
  if (validate(body)) return;
  const errors = validate.errors ?? [];
  // anyOf reports its branches first: name a branch's specific error (not a mere type mismatch), else the anyOf itself
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  const first = anyOf
    ? (errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'type' && e.instancePath.startsWith(anyOf.instancePath)) ?? anyOf)
    : errors[0];
  throw AppError.unprocessable(first ? messageOf(first, errors, root) : `${root || 'the body'} is invalid`);
}

/** CONTRACT 6: the import document. */
export function checkImportDocument(body: unknown): void {
  checkCatalogueBody('CatalogueImportDocument', body);
}

/** `/products/3/variants/0/price` → `products[3].variants[0].price` (after `root`, when given). */
function pathOf(pointer: string, root: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), root);
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'an integer',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

const typeWords = (types: string[]): string => [...new Set(types.filter((x) => x !== 'null'))].map((x) => TYPE_WORDS[x] ?? x).join(' or ');

function messageOf(e: ErrorObject, all: ErrorObject[], root: string): string {
  const path = pathOf(e.instancePath, root);
  const at = (p: string) => (p ? `${p} ` : 'the body ');
  const translated = /\/ImportTranslated(Text)?\//.test(e.schemaPath);
  if (e.propertyName !== undefined)
    return translated ? `${path}.${e.propertyName} is not a language code` : `${path}.${e.propertyName} is not an accepted member name`;
  switch (e.keyword) {
    case 'required':
      return `${path ? `${path}.` : ''}${String((e.params as { missingProperty: string }).missingProperty)} is required`;
    case 'type':
      if (translated) return `${at(path)}must be a string or an object keyed by language code`;
      return `${at(path)}must be ${typeWords(([] as string[]).concat((e.params as { type: string | string[] }).type))}`;
    case 'minimum':
    case 'maximum':
      return `${at(path)}must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String((e.params as { limit: number }).limit)}`;
    case 'maxLength':
      return `${at(path)}must be at most ${String((e.params as { limit: number }).limit)} characters`;
    case 'minLength':
    case 'pattern':
      // keys and key references; an image's src is the other non-empty string
      return path.endsWith('src') ? `${at(path)}must not be empty` : `${at(path)}must be a non-empty string of at most 255 characters`;
    case 'enum':
      return `${at(path)}must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).filter((v) => v !== null).join(', ')}`;
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String((e.params as { additionalProperty: string }).additionalProperty)} is not a member of this object`;
    case 'minProperties':
    case 'maxProperties':
      return `${at(path)}must have exactly one member`;
    case 'anyOf': {
      const types = all
        .filter((o) => o.instancePath === e.instancePath && o.keyword === 'type')
        .flatMap((o) => ([] as string[]).concat((o.params as { type: string | string[] }).type));
      return types.length ? `${at(path)}must be ${typeWords(types)}` : `${at(path)}is invalid`;
    }
    case 'format':
      return `${at(path)}must be an ISO 8601 date-time`;
    default:
      return `${at(path)}${e.message ?? 'is invalid'}`;
  }
}
