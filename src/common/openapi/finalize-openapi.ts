import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODES_EXTENSION } from './api-errors.decorator.js';

/** A JSON object of the document, walked as plain JSON: its members are read through the guards below. */
type Json = { [key: string]: unknown };

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
/** `v` when it is an object, else a new empty one (not attached: for reading). */
const asObj = (v: unknown): Json => (isObj(v) ? v : {});
/** `v` when it is an array, else a new empty one (not attached: for reading). */
const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
/** The object member `key` of `o`, made (an empty object) when missing. */
function child(o: Json, key: string): Json {
  const v = o[key];
  if (isObj(v)) return v;
  const made: Json = {};
  o[key] = made;
  return made;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** What each error status means on this API (CONTRACT 3 and 4); the text of the documented response. */
const ERROR_TEXT: Record<number, string> = {
  400: 'The request could not be read (aborted upload).',
  401: 'Missing, malformed, unknown, expired or revoked token, or a token of another tier.',
  403: 'The token lacks the scope (or its issuer the permission), or the account may not do this.',
  404: 'No such resource in this shop (ids of other shops are 404 too).',
  409: 'The resource is in a state that does not allow this (or an Idempotency-Key is still in progress).',
  413: 'The request body is larger than the limit.',
  415: 'The request body has a media type this operation does not read.',
  422: 'Invalid input: the message names the member.',
  429: 'Rate limit exceeded: wait `Retry-After` seconds.',
  500: 'Unexpected fault; the envelope carries `request_id` for the logs.',
  503: 'Busy: no database connection was free within `DATABASE_ACQUIRE_TIMEOUT_MS`; retry after `Retry-After` seconds.',
};

/** Response headers, as components. */
const HEADERS: Json = {
  'X-Request-Id': { description: "Echoes the request's `X-Request-Id`, or a generated one.", schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: "Burst size of the caller's token bucket (absent when rate limiting is off).", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the bucket now.', schema: { type: 'integer' } },
  'Retry-After': {
    description: 'Seconds to wait before retrying (429: until the bucket allows a request again; 503: the service is busy).',
    required: true,
    schema: { type: 'integer' },
  },
  Link: {
    description: 'RFC 8288 links of a cursored list: `<url>; rel="next"` and `<url>; rel="previous"` when those pages exist.',
    schema: { type: 'string' },
  },
  'Content-Language': { description: "The language the response's texts are in (`locale`, else the shop's default).", schema: { type: 'string' } },
};

const ERROR_ENVELOPE: Json = {
  type: 'object',
  description: 'The one error envelope of every non-2xx answer (SPEC "Errors").',
  additionalProperties: false,
  required: ['errors'],
  properties: {
    errors: { type: ['string', 'null'], description: 'Human-readable description; names the member on 422.' },
    code: { type: 'string', description: 'Machine-readable reason where the API promises one.' },
    request_id: { type: 'string', description: 'Present on 5xx: the id to quote when reporting it.' },
  },
};

/** Parameters every tier reads (the request context: language and currency). */
const PARAMETERS: Json = {
  locale: {
    name: 'locale',
    in: 'query',
    required: false,
    description: "Language of the response texts (one of the shop's languages; else Accept-Language, else the default).",
    schema: { type: 'string' },
  },
  currency: {
    name: 'currency',
    in: 'query',
    required: false,
    description: 'ISO 4217 code of a published currency of the shop; 422 for any other.',
    schema: { type: 'string' },
  },
};

const IDEMPOTENCY_KEY_PARAM: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Up to 255 characters; a retry with the same key and request replays the first answer for 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

export interface FinalizeOptions {
  /** The server URL (PUBLIC_URL when set, else `/`): paths already carry the `/api/<version>` base path. */
  serverUrl: string;
  apiPrefix: string;
  /** Schemas that are not derived from DTO classes (e.g. the catalogue import document), added as components. */
  schemas?: Record<string, unknown>;
}

/**
 * Turns the document @nestjs/swagger derives from the controllers into the published contract: OpenAPI 3.1 (so a
 * nullable reference is `anyOf [ref, null]`, which validators and generators read correctly), closed objects
 * (`additionalProperties: false`), security per tier, and every status an operation can answer with its schema and
 * headers — the generic answers of the tier, the method and the parameters, plus the `code` values declared with
 * `@ApiErrors`.
 */
export function finalizeOpenApi(input: OpenAPIObject, options: FinalizeOptions): OpenAPIObject {
  // a copy: the generated document shares arrays (enums) with the application's own constants
  const doc = structuredClone(input) as unknown as Json;
  doc.openapi = '3.1.0';
  doc.servers = [
    {
      url: options.serverUrl,
      description: `This service. API paths carry the base path /${options.apiPrefix}; /health and the /storefront/* files are outside it.`,
    },
  ];
  child(doc, 'info').license = { name: 'UNLICENSED', identifier: 'UNLICENSED' };
  const components = child(doc, 'components');
  const schemas = child(components, 'schemas');
  components.headers = { ...HEADERS, ...asObj(components.headers) };
  components.parameters = { ...PARAMETERS, ...asObj(components.parameters) };
  for (const schema of Object.values(schemas)) closeObjects(schema);
  Object.assign(schemas, structuredClone(options.schemas ?? {}));
  schemas.ErrorEnvelope = ERROR_ENVELOPE;
  toOpenApi31(doc);

  const tags = new Set<string>();
  for (const [path, item] of Object.entries(asObj(doc.paths))) {
    for (const method of METHODS) {
      const op = asObj(item)[method];
      if (!isObj(op)) continue;
      finalizeOperation(path, method, op);
      for (const t of asArr(op.tags)) if (typeof t === 'string') tags.add(t);
    }
  }
  doc.tags = [...tags].sort().map((name) => ({ name, description: tagDescription(name) }));
  return doc as unknown as OpenAPIObject;
}

function tagDescription(name: string): string {
  const [tier, resource] = name.split(': ');
  const who: Record<string, string> = {
    admin: 'Admin tier (shop staff; vnstat_ token)',
    storefront: 'Storefront tier (visitors; optional vnstss_ token)',
    customer: 'Customer tier (signed-in shoppers; vnscat_ token)',
  };
  return resource ? `${who[tier] ?? tier}: ${resource}.` : `${name}.`;
}

function finalizeOperation(path: string, method: string, op: Json): void {
  const tier = op['x-tier'] as string | undefined;
  delete op['x-tier'];
  const declared = (op[ERROR_CODES_EXTENSION] ?? {}) as Record<string, string[]>;
  delete op[ERROR_CODES_EXTENSION];

  op.security =
    tier === 'admin'
      ? [{ admin: [] }, { 'admin-header': [] }]
      : tier === 'customer'
        ? [{ customer: [] }]
        : tier === 'storefront'
          ? [{ storefront: [] }, {}]
          : [];
  op.summary ??= summaryOf(op);

  if (!Array.isArray(op.parameters)) op.parameters = [];
  const params = op.parameters as Json[];
  const hasPathParams = /\{[^}]+\}/.test(path);
  for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  const idempotent = method === 'post' && (tier === 'admin' || params.some((p) => p.in === 'header' && /^idempotency-key$/i.test(String(p.name))));
  if (idempotent && !params.some((p) => p.in === 'header' && /^idempotency-key$/i.test(String(p.name)))) params.push({ ...IDEMPOTENCY_KEY_PARAM });
  const cursored = params.some((p) => p.in === 'query' && p.name === 'page_info');
  const takesInput = Boolean(op.requestBody) || params.some((p) => p.in === 'query' || p.in === 'header') || tier !== undefined;
  if (tier !== undefined) {
    for (const name of Object.keys(PARAMETERS)) if (!params.some((p) => p.name === name)) params.push({ $ref: `#/components/parameters/${name}` });
  }
  if (params.length === 0) delete op.parameters;

  const statuses = new Map<number, string[]>();
  const add = (status: number, codes: string[] = []) => statuses.set(status, [...(statuses.get(status) ?? []), ...codes]);
  if (tier === 'admin') {
    add(401);
    add(403);
  } else if (tier === 'customer' || tier === 'storefront') {
    add(401); // storefront: an invalid token sent, or no shop found for the Host
    add(403, ['account_disabled']); // a token without the capability's scope, a disabled shopper
  }
  if (hasPathParams) {
    add(404);
    add(422); // a malformed id or key
  }
  if (takesInput || method === 'post' || method === 'put') add(422);
  if (op.requestBody) add(413);
  if (idempotent) {
    add(409, ['idempotency_key_in_progress']);
    add(422, ['idempotency_key_reused']);
  }
  add(429);
  add(500);
  add(503);
  for (const [status, codes] of Object.entries(declared)) add(Number(status), codes);

  const responses = child(op, 'responses');
  for (const [status, codes] of [...statuses].sort((a, b) => a[0] - b[0])) {
    const key = String(status);
    if (asObj(responses[key]).content) continue; // described by the operation itself
    const unique = [...new Set(codes)].sort();
    const schema: Json =
      unique.length > 0
        ? { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { properties: { code: { enum: unique } } }] }
        : { $ref: '#/components/schemas/ErrorEnvelope' };
    responses[key] = {
      description: asObj(responses[key]).description ?? ERROR_TEXT[status] ?? 'Error.',
      headers: headersFor(status, false, tier !== undefined),
      content: { 'application/json': { schema } },
    };
  }
  for (const [key, response] of Object.entries(responses)) {
    if (!isObj(response)) continue;
    const status = Number(key);
    response.headers = {
      ...headersFor(status, cursored && method === 'get' && (status === 200 || status === 304), tier !== undefined),
      ...asObj(response.headers),
    };
  }
}

function headersFor(status: number, link: boolean, localized: boolean): Json {
  const h: Json = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
    'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  };
  if (status === 429 || status === 503) h['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  if (link) h.Link = { $ref: '#/components/headers/Link' };
  if (localized) h['Content-Language'] = { $ref: '#/components/headers/Content-Language' };
  return h;
}

/** A short summary from the operation id when the controller method has no doc comment. */
function summaryOf(op: Json): string {
  const id = String(op.operationId ?? '');
  const method = id.split('_').pop() ?? id;
  const words = method
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `additionalProperties: false` on every object schema that lists its properties (the served shape is exact). */
function closeObjects(schema: unknown): void {
  if (!isObj(schema)) return;
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  for (const p of Object.values(asObj(schema.properties))) closeObjects(p);
  if (schema.items) closeObjects(schema.items);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) for (const s of asArr(schema[k])) closeObjects(s);
}

/** OpenAPI 3.0 `nullable` → 3.1 (JSON Schema 2020-12) null types, everywhere in the document. */
function toOpenApi31(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) toOpenApi31(n);
    return;
  }
  if (!isObj(node)) return;
  const o = node;
  for (const v of Object.values(o)) toOpenApi31(v);
  if (o.nullable === true) {
    delete o.nullable;
    const allOf = asArr(o.allOf);
    if (Array.isArray(o.allOf) && allOf.length === 1 && !o.properties) {
      o.anyOf = [allOf[0], { type: 'null' }];
      delete o.allOf;
      delete o.type;
    } else if (o.$ref) {
      o.anyOf = [{ $ref: o.$ref }, { type: 'null' }];
      delete o.$ref;
    } else if (typeof o.type === 'string') {
      o.type = [o.type, 'null'];
      const values = asArr(o.enum);
      if (Array.isArray(o.enum) && !values.includes(null)) o.enum = [...values, null];
    } else if (Array.isArray(o.oneOf)) {
      asArr(o.oneOf).push({ type: 'null' });
    } else if (Array.isArray(o.anyOf)) {
      asArr(o.anyOf).push({ type: 'null' });
    }
  } else if (o.nullable === false) {
    delete o.nullable;
  }
}
