/**
 * The one source of the catalogue's input shapes: the CONTRACT 6 import document as JSON Schema (2020-12, i.e.
 * OpenAPI 3.1), published as components of the OpenAPI document and checked (`schema-check.ts`) before the writers'
 * own checks, which add what a schema cannot say (references between keys, unique keys, smart rules, the category
 * tree). Members the schema does not list are accepted and ignored, as the contract lets the project add members.
 *
 * `ImportProduct` and `ImportVariant` are the member schemas with nothing required: as they are, they are the bodies of
 * `PUT /admin/products/{id}` and `PUT /admin/products/{id}/variants/{variant_id}` (partial; null allowed where the
 * member is nullable). The import document's `products[]` and the POST bodies (`AdminProductCreate`,
 * `AdminVariantCreate`) are the same components plus what they require.
 */
type Schema = Record<string, unknown>;

const KEY: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S', description: 'Unique per kind and shop; the upsert key.' };
/** A key reference or null (a string that is not empty). */
const NKEY: Schema = { type: ['string', 'null'], minLength: 1, maxLength: 255, pattern: '\\S' };
const KEYS: Schema = { type: 'array', items: KEY };
const nstr = (max: number, description?: string): Schema => ({ type: ['string', 'null'], maxLength: max, ...(description ? { description } : {}) });
const nnum = (min: number, max: number, extra: Schema = {}): Schema => ({ type: ['number', 'null'], minimum: min, maximum: max, ...extra });
const nint = (min: number, max: number, extra: Schema = {}): Schema => ({ type: ['integer', 'null'], minimum: min, maximum: max, ...extra });
const nbool: Schema = { type: ['boolean', 'null'] };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string): Schema => ({ type: ['array', 'null'], items: ref(name) });
const T = ref('ImportTranslated');
/** Descriptions and HTML: longer text, still bounded (a factsheet, an index and a page render it). */
const TEXT = ref('ImportTranslatedText');
/** Characters per language of a name or title, and of a description or HTML member (README, Security). */
export const TRANSLATED_MAX_LENGTH = { name: 1_000, text: 20_000 } as const;
const MONEY = nnum(0, 1e9, { description: 'Default currency; gross when prices_include_tax, net otherwise.' });
const PRICE: Schema = { type: 'number', minimum: 0, maximum: 1e9, description: 'Default currency; gross when prices_include_tax, net otherwise.' };
const LANGUAGE_CODE = '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$';

/** What the import document requires of a product and its variants on top of the member schemas. */
const IMPORT_PRODUCT: Schema = {
  allOf: [
    ref('ImportProduct'),
    {
      required: ['key', 'title'],
      properties: { key: KEY, variants: { type: ['array', 'null'], items: { required: ['key', 'price'], properties: { key: KEY, price: PRICE } } } },
    },
  ],
};

/** The parts, published as components (`Import<Part>`); the document itself is `CatalogueImportDocument`. */
export const IMPORT_SCHEMAS: Record<string, Schema> = {
  ImportTranslated: {
    description: `Text keyed by language code, or a plain string in the default language; at most ${TRANSLATED_MAX_LENGTH.name} characters per language. On PUT it merges per language: \`{"de": null}\` removes one.`,
    type: ['string', 'object', 'null'],
    maxLength: TRANSLATED_MAX_LENGTH.name,
    propertyNames: { pattern: LANGUAGE_CODE },
    additionalProperties: { type: ['string', 'null'], maxLength: TRANSLATED_MAX_LENGTH.name },
  },
  ImportTranslatedText: {
    description: `A description or HTML member: as \`ImportTranslated\`, at most ${TRANSLATED_MAX_LENGTH.text} characters per language. HTML is sanitised on write (README, Security).`,
    type: ['string', 'object', 'null'],
    maxLength: TRANSLATED_MAX_LENGTH.text,
    propertyNames: { pattern: LANGUAGE_CODE },
    additionalProperties: { type: ['string', 'null'], maxLength: TRANSLATED_MAX_LENGTH.text },
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
      invoice_due_days: nint(0, 3650),
      return_window_days: nint(0, 3650),
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
    properties: {
      key: KEY,
      code: { type: 'string', minLength: 3, maxLength: 3, description: 'ISO 4217 (defaults to key).' },
      name: nstr(200),
      symbol: nstr(20),
      rate: nnum(0.00000001, 1e9, { description: 'Units per default-currency unit.' }),
      precision: nint(0, 4),
      published: nbool,
    },
  },
  ImportCountry: {
    type: 'object',
    properties: {
      key: KEY,
      code: { type: 'string', minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2 (defaults to key).' },
      name: T,
      shipping: nbool,
    },
  },
  ImportLocation: { type: 'object', required: ['key'], properties: { key: KEY, name: nstr(200) } },
  ImportManufacturer: { type: 'object', required: ['key'], properties: { key: KEY, name: nstr(500), logo_url: nstr(2000) } },
  ImportCategory: {
    type: 'object',
    required: ['key'],
    properties: { key: KEY, name: T, parent: { ...NKEY, description: 'Key of the parent category.' }, position: nint(-2147483648, 2147483647) },
  },
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
    properties: {
      key: KEY,
      name: T,
      price: MONEY,
      currency: nstr(3, "The import only: ISO 4217 code of the prices, optional; the shop's default currency (422 `currency_mismatch` otherwise)."),
      tax_rate: nnum(0, 100),
      countries: { type: ['array', 'null'], items: KEY },
      free_over: MONEY,
      delivery_days: nint(0, 365),
      rate_table: { anyOf: [ref('ImportRateTable'), { type: 'null' }] },
      zones: {
        type: ['array', 'null'],
        items: ref('ImportShippingMethodZone'),
        description: 'Per zone of the shop (by key); the most specific zone containing the address serves it.',
      },
      rate_provider: { type: ['string', 'null'], pattern: '^[a-z0-9_-]{1,50}$', description: 'The `ShippingRateProvider` asked first (carrier rates).' },
    },
  },
  ImportRateTable: {
    type: 'object',
    description:
      'Prices by `bottles` (sum of quantities), `grams` or `value` (subtotal after discount). Steps cover the measure without gap or overlap: bottles and grams inclusive (`1–6`, `7–12`), value `from ≤ v < to`; only the last `to` may be null. `beyond`: each started block of `every` units above the last step adds `price`.',
    required: ['basis', 'steps'],
    properties: {
      basis: { type: 'string', enum: ['bottles', 'grams', 'value'] },
      steps: {
        type: 'array',
        minItems: 1,
        maxItems: 200,
        items: {
          type: 'object',
          required: ['from', 'price'],
          properties: { from: { type: 'number', minimum: 0 }, to: { type: ['number', 'null'], minimum: 0 }, price: PRICE },
        },
      },
      beyond: { type: ['object', 'null'], required: ['every', 'price'], properties: { every: { type: 'number', exclusiveMinimum: 0 }, price: PRICE } },
    },
  },
  ImportShippingMethodZone: {
    type: 'object',
    required: ['zone'],
    properties: {
      zone: KEY,
      rate_table: { anyOf: [ref('ImportRateTable'), { type: 'null' }] },
      free_over: MONEY,
      delivery_days: nint(0, 365),
      excluded_postcodes: {
        type: ['array', 'null'],
        maxItems: 10000,
        items: { type: 'string', maxLength: 42 },
        description: 'Postcodes not served: exact, a prefix ending in `*`, or a range `A..B` of codes of one length.',
      },
    },
  },
  ImportDestinationRule: {
    type: 'object',
    description: 'The destination rules of one zone of the shop (by key), for alcoholic products.',
    required: ['zone'],
    properties: {
      zone: KEY,
      alcohol_shipping: { type: ['boolean', 'null'], description: 'false: closed to alcohol (`destination_closed`).' },
      max_litres_per_order: nnum(0, 1e6),
      max_litres_per_year: nnum(0, 1e6, { description: 'Per buyer (email) per calendar year, past orders included.' }),
      min_age: nint(0, 150),
    },
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
    description:
      "A variant's members (CONTRACT 6). The import requires `key` and `price`; `POST /admin/products/{id}/variants` requires `price` (a key is generated when none is given); on PUT every member is optional, absent = unchanged, null = cleared where nullable (null leaves `key`, `published`, `active`, `price`, `tax_rate`, `track_inventory` and `allow_backorder` unchanged).",
    properties: {
      id: {
        type: ['string', 'null'],
        description:
          '`PUT /admin/products/{id}` only: the variant to change (else matched by `key`; an unmatched entry adds a variant). The import ignores it.',
      },
      key: { ...NKEY, description: 'Unique per shop; the upsert key.' },
      handle: nstr(255),
      sku: nstr(255),
      title: T,
      price: { ...PRICE, type: ['number', 'null'] },
      compare_at_price: MONEY,
      currency: nstr(
        3,
        "ISO 4217 code of `price` and `compare_at_price`, optional: it must be the shop's default currency (422 `currency_mismatch` otherwise); prices of the other currencies are derived by their rate. Not stored.",
      ),
      tax_rate: nnum(0, 100),
      published: nbool,
      active: nbool,
      color: { ...NKEY, description: 'Facet value key.' },
      region: NKEY,
      year: NKEY,
      size: NKEY,
      country: NKEY,
      alcohol_volume: nnum(0, 100),
      tax_category: { ...NKEY, description: 'Key of a tax category (README "Taxes"); null clears it.' },
      volume_ml: { ...nnum(0.1, 1e6), description: 'Volume of one unit in ml, for excise (else read from the size).' },
      grams: nint(0, 1e7),
      option_group: nstr(255),
      description: TEXT,
      description_additional: TEXT,
      area: nstr(255),
      quantity_rule: { type: ['object', 'null'], properties: { min: nnum(0, 1e6), max: nnum(0, 1e6), increment: nnum(0.001, 1e6) } },
      custom_fields: { type: ['object', 'null'], description: 'Custom-field key → option key(s).', additionalProperties: { anyOf: [KEY, KEYS] } },
      track_inventory: nbool,
      allow_backorder: nbool,
      gift_card: {
        ...nbool,
        description: 'Sold as a gift card: its purchase issues a card per unit once the order is paid (README "Gift cards and store credit").',
      },
      stock: {
        type: ['object', 'null'],
        description: 'Location key → on-hand quantity (sets the level).',
        additionalProperties: { type: 'number', minimum: -1e9, maximum: 1e9 },
      },
    },
  },
  ImportProduct: {
    type: 'object',
    description:
      "A product's members (CONTRACT 6). The import requires `key` and `title`; `POST /admin/products` requires `title` (keys are generated when none are given); on PUT every member is optional, absent = unchanged, null = cleared where nullable (null leaves `key`, `published` and `created_at` unchanged), and `variants` entries change the variant of their `id` or `key` or add one.",
    properties: {
      key: { ...NKEY, description: 'Unique per shop; the upsert key.' },
      handle: nstr(255),
      title: T,
      body_html: TEXT,
      summary_html: TEXT,
      manufacturer: { ...NKEY, description: 'Manufacturer key.' },
      categories: { type: ['array', 'null'], items: KEY, description: 'Category keys.' },
      flag: { ...NKEY, description: 'Flag key.' },
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
      body_html: TEXT,
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
  ImportSearchSynonym: {
    type: 'object',
    description: 'A search synonym rule (README "Search synonyms"), upserted by `key` as `POST /admin/search/synonyms/import` does.',
    required: ['key'],
    properties: {
      key: KEY,
      kind: { type: ['string', 'null'], enum: ['two_way', 'one_way', null] },
      terms: { type: ['array', 'null'], items: { type: 'string' } },
      synonyms: { type: ['array', 'null'], items: { type: 'string' } },
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
      destination_rules: list('ImportDestinationRule'),
      facets: ref('ImportFacets'),
      custom_fields: list('ImportCustomField'),
      categories: list('ImportCategory'),
      products: { type: ['array', 'null'], items: IMPORT_PRODUCT },
      collections: list('ImportCollection'),
      search_synonyms: list('ImportSearchSynonym'),
      tax: {
        type: ['object', 'null'],
        description:
          'Taxes by destination (README "Taxes"): {preset ("eu-2026"), mode, gross_price_policy, excise_display, categories [{key, name, excise_class}], zones [{key, name, countries, regions, postcodes}], rates [{category, zone, rate, excise_per_hl, valid_from, valid_to}]}.',
      },
    },
  },
  AdminProductCreate: {
    description: 'The body of `POST /admin/products`: the product members with `title` required; keys are generated when none are given.',
    allOf: [
      ref('ImportProduct'),
      { required: ['title'], properties: { variants: { type: ['array', 'null'], items: { required: ['price'], properties: { price: PRICE } } } } },
    ],
  },
  AdminVariantCreate: {
    description: 'The body of `POST /admin/products/{id}/variants`: the variant members with `price` required; a key is generated when none is given.',
    allOf: [ref('ImportVariant'), { required: ['price'], properties: { price: PRICE } }],
  },
  CatalogueImportFragment: {
    type: 'object',
    description:
      'One line of the NDJSON form of the import (`Content-Type: application/x-ndjson`): an object with one member of `CatalogueImportDocument`. The arrays of lines naming the same member are concatenated in order; `settings` and `facets` may appear once.',
    minProperties: 1,
    maxProperties: 1,
    properties: {},
  },
};

// a fragment holds one member of the document, described as the document describes it
(IMPORT_SCHEMAS.CatalogueImportFragment as { properties: unknown }).properties = (IMPORT_SCHEMAS.CatalogueImportDocument as { properties: unknown }).properties;

// the admin API's bodies of shipping methods and destination rules: the import's members, none required (a POST's
// `name` or `zone` is checked by the shipping module, which names the member)
const { currency: _importOnly, ...adminShippingMembers } = IMPORT_SCHEMAS.ImportShippingMethod.properties as Schema;
IMPORT_SCHEMAS.AdminShippingMethodWrite = {
  ...IMPORT_SCHEMAS.ImportShippingMethod,
  properties: adminShippingMembers,
  required: [],
  description: 'POST and PUT /admin/shipping_methods: the import members; `name` required on POST, `key` generated when omitted.',
};
IMPORT_SCHEMAS.AdminDestinationRuleWrite = {
  ...IMPORT_SCHEMAS.ImportDestinationRule,
  required: [],
  description: 'POST and PUT /admin/destination_rules: the import members; `zone` required on POST.',
};
