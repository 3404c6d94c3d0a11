import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AppError } from '../../common/http/app-error.js';

/**
 * The CONTRACT 6 import document as JSON Schema (2020-12, i.e. OpenAPI 3.1): published in the OpenAPI document as
 * `CatalogueImportDocument` (+ `Import*` parts) and checked on every import before the import's own checks, which add
 * what a schema cannot say (references between keys, unique keys, smart rules, the category tree). Members the schema
 * does not list are accepted and ignored, as the contract lets the project add members.
 */
type Schema = Record<string, unknown>;

const KEY: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S', description: 'Unique per kind and shop; the upsert key.' };
const KEYS: Schema = { type: 'array', items: KEY };
const nstr = (max: number, description?: string): Schema => ({ type: ['string', 'null'], maxLength: max, ...(description ? { description } : {}) });
const nnum = (min: number, max: number, extra: Schema = {}): Schema => ({ type: ['number', 'null'], minimum: min, maximum: max, ...extra });
const nint = (min: number, max: number, extra: Schema = {}): Schema => ({ type: ['integer', 'null'], minimum: min, maximum: max, ...extra });
const nbool: Schema = { type: ['boolean', 'null'] };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string): Schema => ({ type: ['array', 'null'], items: ref(name) });
const T = ref('ImportTranslated');
const MONEY = nnum(0, 1e9, { description: 'Default currency; gross when prices_include_tax, net otherwise.' });

/** The parts, published as components (`Import<Part>`); the document itself is `CatalogueImportDocument`. */
export const IMPORT_SCHEMAS: Record<string, Schema> = {
  ImportTranslated: {
    description: 'Text keyed by language code, or a plain string in the default language.',
    anyOf: [{ type: 'string' }, { type: 'object', propertyNames: { pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$' }, additionalProperties: { type: ['string', 'null'] } }, { type: 'null' }],
  },
  ImportSettings: {
    type: ['object', 'null'],
    properties: {
      default_language: nstr(20),
      languages: { type: ['array', 'null'], items: KEY },
      default_currency: nstr(3),
      prices_include_tax: nbool,
      show_net_prices: nbool,
      require_email_confirmation: nbool,
      guest_checkout_enabled: nbool,
      terms: { type: ['object', 'null'], properties: { required: nbool, terms_url: nstr(2000), privacy_url: nstr(2000) } },
      age_verification: {
        type: ['object', 'null'],
        properties: {
          min_age: nint(0, 150),
          min_age_by_country: { type: ['object', 'null'], additionalProperties: { type: 'integer', minimum: 0, maximum: 150 } },
          applies_to_alcohol_volume_over: nnum(0, 100),
        },
      },
    },
  },
  ImportCurrency: {
    type: 'object',
    properties: { key: KEY, code: { type: 'string', minLength: 3, maxLength: 3, description: 'ISO 4217 (defaults to key).' }, name: nstr(200), symbol: nstr(20), rate: nnum(0.00000001, 1e9, { description: 'Units per default-currency unit.' }), precision: nint(0, 4), published: nbool },
  },
  ImportCountry: { type: 'object', properties: { key: KEY, code: { type: 'string', minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2 (defaults to key).' }, name: T, shipping: nbool } },
  ImportLocation: { type: 'object', required: ['key'], properties: { key: KEY, name: nstr(200) } },
  ImportManufacturer: { type: 'object', required: ['key'], properties: { key: KEY, name: nstr(500), logo_url: nstr(2000) } },
  ImportCategory: { type: 'object', required: ['key'], properties: { key: KEY, name: T, parent: { anyOf: [KEY, { type: 'null' }], description: 'Key of the parent category.' }, position: nint(-2147483648, 2147483647) } },
  ImportFacetValue: { type: 'object', required: ['key'], properties: { key: KEY, name: T, position: nint(-2147483648, 2147483647) } },
  ImportFacets: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: Object.fromEntries(['colors', 'regions', 'sizes', 'years', 'countries'].map((d) => [d, list('ImportFacetValue')])),
  },
  ImportCustomField: {
    type: 'object',
    required: ['key'],
    properties: {
      key: KEY,
      label: T,
      type: nstr(50),
      options: { type: ['array', 'null'], items: { type: 'object', required: ['key'], properties: { key: KEY, name: T, value: nstr(500) } } },
    },
  },
  ImportFlag: { type: 'object', required: ['key'], properties: { key: KEY, name: T, color: nstr(50) } },
  ImportShippingMethod: {
    type: 'object',
    required: ['key'],
    properties: { key: KEY, name: T, price: MONEY, tax_rate: nnum(0, 100), countries: { type: ['array', 'null'], items: KEY }, free_over: MONEY, delivery_days: nint(0, 365) },
  },
  ImportPaymentType: {
    type: 'object',
    required: ['key', 'kind'],
    properties: { key: KEY, name: T, kind: { type: 'string', maxLength: 50, description: '`invoice`, `prepayment`, `redirect`, ...' }, image_url: nstr(2000) },
  },
  ImportImage: {
    type: 'object',
    required: ['src'],
    properties: { src: { type: 'string', minLength: 1, maxLength: 2000 }, alt: nstr(500), width: nint(0, 100000), height: nint(0, 100000) },
  },
  ImportVariant: {
    type: 'object',
    required: ['key', 'price'],
    properties: {
      key: KEY,
      handle: nstr(255),
      sku: nstr(255),
      title: T,
      price: { type: 'number', minimum: 0, maximum: 1e9, description: 'Default currency; gross when prices_include_tax, net otherwise.' },
      compare_at_price: MONEY,
      tax_rate: nnum(0, 100),
      published: nbool,
      active: nbool,
      color: { anyOf: [KEY, { type: 'null' }] },
      region: { anyOf: [KEY, { type: 'null' }] },
      year: { anyOf: [KEY, { type: 'null' }] },
      size: { anyOf: [KEY, { type: 'null' }] },
      country: { anyOf: [KEY, { type: 'null' }] },
      alcohol_volume: nnum(0, 100),
      grams: nint(0, 1e7),
      option_group: nstr(255),
      description: T,
      description_additional: T,
      area: nstr(255),
      quantity_rule: { type: ['object', 'null'], properties: { min: nnum(0, 1e6), max: nnum(0, 1e6), increment: nnum(0.001, 1e6) } },
      custom_fields: { type: ['object', 'null'], description: 'Custom-field key → option key(s).', additionalProperties: { anyOf: [KEY, KEYS] } },
      track_inventory: nbool,
      allow_backorder: nbool,
      stock: { type: ['object', 'null'], description: 'Location key → on-hand quantity (sets the level).', additionalProperties: { type: 'number', minimum: -1e9, maximum: 1e9 } },
    },
  },
  ImportProduct: {
    type: 'object',
    required: ['key', 'title'],
    properties: {
      key: KEY,
      handle: nstr(255),
      title: T,
      body_html: T,
      summary_html: T,
      manufacturer: { anyOf: [KEY, { type: 'null' }] },
      categories: { type: ['array', 'null'], items: KEY },
      flag: { anyOf: [KEY, { type: 'null' }] },
      tags: { type: ['array', 'null'], items: KEY },
      published: nbool,
      created_at: { type: ['string', 'null'], format: 'date-time' },
      images: list('ImportImage'),
      ratings: { type: ['array', 'null'], items: { type: 'integer', minimum: 1, maximum: 5 } },
      variants: list('ImportVariant'),
    },
  },
  ImportCollection: {
    type: 'object',
    required: ['key', 'title'],
    properties: {
      key: KEY,
      title: T,
      handle: nstr(255),
      body_html: T,
      collection_type: { type: ['string', 'null'], enum: ['manual', 'smart', null] },
      published: nbool,
      products: { type: ['array', 'null'], items: KEY, description: 'Product keys of this import (manual collections).' },
      rules_json: nstr(20000, 'Smart rules: `{"all"|"any": [{"field", "eq|neq|lt|gt|contains": value}]}` as a JSON string.'),
      sort_order: nstr(50),
      template_name: nstr(100),
      meta_title: nstr(255),
      meta_description: nstr(1000),
      image: { anyOf: [ref('ImportImage'), { type: 'null' }] },
    },
  },
  CatalogueImportDocument: {
    type: 'object',
    description: 'The catalogue import of CONTRACT 6: every member optional; an upsert by `key`, all or nothing.',
    properties: {
      settings: ref('ImportSettings'),
      currencies: list('ImportCurrency'),
      countries: list('ImportCountry'),
      locations: list('ImportLocation'),
      manufacturers: list('ImportManufacturer'),
      flags: list('ImportFlag'),
      shipping_methods: list('ImportShippingMethod'),
      payment_types: list('ImportPaymentType'),
      facets: ref('ImportFacets'),
      custom_fields: list('ImportCustomField'),
      categories: list('ImportCategory'),
      products: list('ImportProduct'),
      collections: list('ImportCollection'),
    },
  },
};

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) });
    compiled = ajv.compile({ $id: 'catalogue-import.json', components: { schemas: IMPORT_SCHEMAS }, $ref: '#/components/schemas/CatalogueImportDocument' });
  }
  return compiled;
}

/** `/products/3/variants/0/price` → `products[3].variants[0].price`. */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

const TYPE_WORDS: Record<string, string> = { number: 'a number', integer: 'an integer', string: 'a string', boolean: 'a boolean', object: 'an object', array: 'an array' };

function messageOf(e: ErrorObject): string {
  const path = pathOf(e.instancePath);
  const at = (p: string) => (p ? `${p} ` : 'the body ');
  switch (e.keyword) {
    case 'required':
      return `${path ? `${path}.` : ''}${String((e.params as { missingProperty: string }).missingProperty)} is required`;
    case 'type': {
      const types = ([] as string[]).concat((e.params as { type: string | string[] }).type).filter((x) => x !== 'null');
      return `${at(path)}must be ${types.map((x) => TYPE_WORDS[x] ?? x).join(' or ')}`;
    }
    case 'minimum':
    case 'maximum':
      return `${at(path)}must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String((e.params as { limit: number }).limit)}`;
    case 'maxLength':
      return `${at(path)}must be at most ${String((e.params as { limit: number }).limit)} characters`;
    case 'minLength':
    case 'pattern':
      return e.instancePath.includes('/key') || path.endsWith('key') ? `${at(path)}must be a non-empty string of at most 255 characters` : `${at(path)}is invalid`;
    case 'enum':
      return `${at(path)}must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).filter((v) => v !== null).join(', ')}`;
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String((e.params as { additionalProperty: string }).additionalProperty)} is not a member of this object`;
    case 'propertyNames':
      return `${at(path)}has a key that is not a language code`;
    case 'anyOf':
      return `${at(path)}must be a string or an object keyed by language code`;
    case 'format':
      return `${at(path)}must be an ISO 8601 date-time`;
    default:
      return `${at(path)}${e.message ?? 'is invalid'}`;
  }
}

/** Throws 422 naming the first member of `body` the schema refuses (CONTRACT 6). */
export function checkImportDocument(body: unknown): void {
  const validate = validator();
  if (validate(body)) return;
  const errors = validate.errors ?? [];
  // anyOf reports its branches first: name the deepest specific error, else the anyOf itself
  const first = errors.find((e) => e.keyword !== 'anyOf' && !errors.some((o) => o.keyword === 'anyOf' && o.instancePath === e.instancePath)) ?? errors[0];
  throw AppError.unprocessable(first ? messageOf(first) : 'the import document is invalid');
}
