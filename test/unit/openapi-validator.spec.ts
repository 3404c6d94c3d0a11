import { afterAll, describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ResponseValidator, takeViolations } from '../helpers/openapi-validator.js';

/** The e2e suite's response check (test/helpers/openapi-validator.ts), with its validators precompiled once per run or compiled lazily. */
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  components: {
    schemas: {
      Thing: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', format: 'uuid' } } },
      ErrorEnvelope: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
    },
  },
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { description: 'no', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
          '422': { description: 'bad', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
        },
      },
    },
  },
} as unknown as OpenAPIObject;

/** A server answering `GET /things/:id` with the status and body the id names, checked by a fresh validator. */
async function answer(status: number, body: unknown): Promise<void> {
  const server = createServer((req: IncomingMessage & { route?: { path: string } }, res: ServerResponse) => {
    req.route = { path: '/things/:id' };
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  });
  new ResponseValidator(doc).install(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things/x`);
    await res.text();
    await new Promise((r) => setTimeout(r, 20)); // the check runs on 'finish'
  } finally {
    await new Promise((done) => server.close(done));
  }
}

const runDir = mkdtempSync(join(tmpdir(), 'validator-spec-'));
const before = process.env.TEST_RUN_DIR;
afterAll(() => {
  process.env.TEST_RUN_DIR = before;
  rmSync(runDir, { recursive: true, force: true });
});

describe.each([
  ['compiled lazily (no run directory)', undefined],
  ['precompiled once per run', runDir],
])('ResponseValidator, %s', (_name, dir) => {
  it('passes documented bodies and reports a body outside its schema, an undocumented status and a wrong error body', async () => {
    if (dir) process.env.TEST_RUN_DIR = dir;
    else delete process.env.TEST_RUN_DIR;
    takeViolations();
    await answer(200, { id: '7f2c1f9e-3d1b-4c55-9d4e-2f1f6a1f0b11' });
    await answer(404, { error: 'not found' });
    expect(takeViolations()).toEqual([]);
    await answer(200, { id: 'not-a-uuid', extra: 1 });
    await answer(500, { error: 'boom' });
    await answer(422, { message: 'no error member' });
    const problems = takeViolations().map((v) => `${v.status} ${v.problem}`);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^200 body does not match the schema: .*additional properties \(extra\)/);
    expect(problems[0]).toContain('/id must match format "uuid"');
    expect(problems[1]).toBe('500 status 500 is not documented for GET /things/{id}');
    expect(problems[2]).toMatch(/^422 body does not match the schema: .*error/);
    if (dir) expect(readdirSync(dir).filter((f) => f.endsWith('.cjs'))).toHaveLength(1);
  });
});
