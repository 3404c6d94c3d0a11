import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

type Json = Record<string, any>;

/**
 * Checks every response the e2e suite receives against the published OpenAPI document: the status must be documented
 * for the operation, a JSON body must match its schema, a non-JSON body's media type must be listed, and the headers
 * the API promises (Link, Content-Language, Retry-After, X-RateLimit-*) must be documented where they are sent.
 * Violations are collected here and fail the test that caused them (test/helpers/openapi-after-each.ts).
 */
export interface Violation {
  method: string;
  path: string;
  status: number;
  problem: string;
}

const KEY = Symbol.for('shop.openapi.violations');
const store = globalThis as unknown as Record<symbol, Violation[] | undefined>;

export function takeViolations(): Violation[] {
  const list = store[KEY] ?? [];
  store[KEY] = [];
  return list;
}

function report(v: Violation): void {
  (store[KEY] ??= []).push(v);
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: Ajv2020,
  refs: Record<string, string>,
) => string;
const requireHere = createRequire(import.meta.url);
const CHECKED_HEADERS = ['link', 'content-language', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining'];

function newAjv(doc: Json, source = false): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
  return ajv;
}

/** The key of a response schema: the same schema (1,245 of 1,559 responses are the bare error envelope) compiles once. */
const schemaKey = (schema: Json): string => createHash('sha1').update(JSON.stringify(schema)).digest('hex');

/** Every JSON response schema of the document, each distinct one once, by key. */
function distinctSchemas(doc: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [path, ops] of Object.entries(doc.paths as Json))
    for (const [method, op] of Object.entries(ops as Json))
      for (const [status, response] of Object.entries(((op as Json).responses ?? {}) as Json)) {
        if (!(response as Json).content?.['application/json']?.schema) continue;
        const schema = schemaAt(doc, ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']);
        out.set(schemaKey(schema), schema);
      }
  return out;
}

/**
 * The validators of every distinct response schema of `doc`, compiled once per test run (ajv standalone code in
 * TEST_RUN_DIR, keyed by the document's hash) instead of once per test file: compiling them lazily cost about 1.5 CPU s
 * per file. The first app of a run that finds no file compiles and writes it (a lock directory keeps the other worker
 * from doing the same meanwhile: that one compiles lazily, as without a run directory). Null when there is no file yet.
 */
function precompiled(doc: Json): Record<string, ValidateFunction> | null {
  const dir = process.env.TEST_RUN_DIR;
  if (!dir) return null;
  const file = join(dir, `validators-${createHash('sha1').update(JSON.stringify(doc)).digest('hex')}.cjs`);
  if (!existsSync(file)) {
    try {
      mkdirSync(`${file}.lock`);
    } catch {
      return null; // another worker is compiling them
    }
    const ajv = newAjv(doc, true);
    const refs: Record<string, string> = {};
    for (const [key, schema] of distinctSchemas(doc)) {
      ajv.addSchema(schema, key);
      refs[key] = key;
    }
    writeFileSync(`${file}.tmp`, standaloneCode(ajv, refs));
    renameSync(`${file}.tmp`, file);
  }
  const module = { exports: {} as Record<string, ValidateFunction> };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- ajv's own generated code, written by this run
  new Function('module', 'exports', 'require', readFileSync(file, 'utf8'))(module, module.exports, requireHere);
  return module.exports;
}

/** The validators of one document object, shared by every ResponseValidator of it (below). */
interface DocumentValidators {
  /** For a schema not precompiled (made on first need: adding the components costs about 0.2 CPU s). */
  ajv: Ajv2020 | null;
  /** Compiled validators by schema key: the run's precompiled ones, then those compiled here. */
  compiled: Map<string, ValidateFunction>;
  byRoute: Map<string, ValidateFunction>;
}

/**
 * By document object and run directory: the apps of one module registry that share a document object (test-app.ts
 * hands every app of a group of e2e files the same one) share its validators, instead of loading the precompiled ones
 * (hashing the document, evaluating 1.8 MB of code: about 0.15 CPU s) and working out each route's validator again.
 */
const byDocument = new WeakMap<object, Map<string, DocumentValidators>>();

export class ResponseValidator {
  private readonly v: DocumentValidators;
  /** Route template (express `:id`) per OpenAPI path (`{id}`). */
  private readonly paths: Json;

  constructor(private readonly doc: OpenAPIObject) {
    this.paths = (doc as Json).paths;
    let runs = byDocument.get(doc);
    if (!runs) byDocument.set(doc, (runs = new Map()));
    const run = process.env.TEST_RUN_DIR ?? '';
    let v = runs.get(run);
    if (!v) {
      const pre = precompiled(doc as Json);
      v = { ajv: null, compiled: new Map(Object.entries(pre ?? {})), byRoute: new Map() };
      // none yet while another worker compiles them: the next app looks again
      if (pre || !run) runs.set(run, v);
    }
    this.v = v;
  }

  /** Starts checking every response of `server` (install before the first request). */
  install(server: Server): void {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.watch(req, res));
  }

  private watch(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.once('finish', () => {
      try {
        this.check(req as IncomingMessage & { route?: { path?: string } }, res, decoded(res, Buffer.concat(chunks)));
      } catch (err) {
        report({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode, problem: `validator failed: ${String(err)}` });
      }
    });
  }

  private check(req: IncomingMessage & { route?: { path?: string } }, res: ServerResponse, body: Buffer): void {
    const template = req.route?.path;
    if (!template || req.method === 'HEAD') return; // no route matched (a 404 fallback) or no body to check
    const path = template.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
    const method = (req.method ?? 'GET').toLowerCase();
    const op = this.paths[path]?.[method] as Json | undefined;
    if (!op) return; // not part of the API document (docs UI, the test payment pages)
    const status = res.statusCode;
    const at = { method: req.method ?? '', path: req.url ?? '', status };
    const response = op.responses?.[String(status)] as Json | undefined;
    if (!response) {
      report({ ...at, problem: `status ${status} is not documented for ${method.toUpperCase()} ${path}` });
      return;
    }
    const documentedHeaders = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
    for (const h of CHECKED_HEADERS) {
      if (res.getHeader(h) !== undefined && !documentedHeaders.includes(h)) report({ ...at, problem: `header ${h} is sent but not documented` });
    }
    const content = response.content as Json | undefined;
    if (status === 204 || status === 304 || body.length === 0) {
      if (body.length > 0) report({ ...at, problem: `a ${status} carries a body` });
      return;
    }
    const type = String(res.getHeader('content-type') ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!content) {
      report({ ...at, problem: `a body of type ${type} is sent but the response documents none` });
      return;
    }
    const media = content[type] ?? Object.entries(content).find(([k]) => k.endsWith('/*') && type.startsWith(k.slice(0, -1)))?.[1] ?? content['*/*'];
    if (!media) {
      report({ ...at, problem: `media type ${type} is not documented (documented: ${Object.keys(content).join(', ')})` });
      return;
    }
    if (type !== 'application/json' || !media.schema) return;
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      if (!content['*/*']) report({ ...at, problem: 'the body is not JSON' }); // else: raw bytes stored as application/json
      return;
    }
    const validate = this.validator(path, method, String(status), type);
    if (!validate(json)) {
      const errors = (validate.errors ?? [])
        .slice(0, 8)
        .map(
          (e) =>
            `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
        );
      report({ ...at, problem: `body does not match the schema: ${errors.join('; ')}` });
    }
  }

  private validator(path: string, method: string, status: string, type: string): ValidateFunction {
    const route = `${method} ${path} ${status} ${type}`;
    let v = this.v.byRoute.get(route);
    if (v) return v;
    const schema = schemaAt(this.doc as Json, ['paths', path, method, 'responses', status, 'content', type, 'schema']);
    const key = schemaKey(schema);
    v = this.v.compiled.get(key);
    if (!v) {
      v = (this.v.ajv ??= newAjv(this.doc as Json)).compile(schema);
      this.v.compiled.set(key, v);
    }
    this.v.byRoute.set(route, v);
    return v;
  }
}

/** A copy of the schema at `path` in the document, its local `#/components/...` references pointed at the shared components. */
function schemaAt(doc: Json, path: string[]): Json {
  const node: unknown = path.reduce<any>((n, key) => n[key], doc);
  return JSON.parse(JSON.stringify(node).replace(/"#\/components\//g, '"openapi.json#/components/')) as Json;
}

/** The body as the client reads it: compressed answers (src/common/http/compression.ts) decoded. */
function decoded(res: ServerResponse, body: Buffer): Buffer {
  const coding = String(res.getHeader('content-encoding') ?? '');
  if (body.length === 0) return body;
  if (coding === 'gzip') return gunzipSync(body);
  if (coding === 'br') return brotliDecompressSync(body);
  return body;
}
