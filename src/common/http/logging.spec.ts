import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRootLogger, PinoNestLogger, requestLogger } from './logging.js';

describe('PinoNestLogger', () => {
  it('writes an Error’s message (Nest logs start errors as the Error object, whose message is not enumerable)', () => {
    const lines: string[] = [];
    const logger = new PinoNestLogger(createRootLogger('info', { write: (line: string) => lines.push(line) }));
    logger.error(new Error('invalid range on address: 0.0.0.0/0'));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { msg?: string; trace?: string };
    expect(entry.msg).toBe('invalid range on address: 0.0.0.0/0');
    expect(entry.trace).toContain('logging.spec');
  });
});

/** The request log's lines for requests answered with these statuses, at this level. */
function linesFor(level: string, statuses: number[]): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const log = requestLogger(createRootLogger(level, { write: (line: string) => lines.push(line) })) as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
  ) => void;
  for (const status of statuses) {
    const req = Object.assign(new EventEmitter(), { method: 'GET', url: `/${status}?token=secret`, headers: {}, socket: {} });
    const res = Object.assign(new EventEmitter(), { statusCode: 200, headersSent: false, setHeader: () => undefined, getHeader: () => undefined });
    log(req as unknown as IncomingMessage, res as unknown as ServerResponse, () => {
      res.statusCode = status;
      res.headersSent = true;
      res.emit('finish');
    });
  }
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('requestLogger', () => {
  it('at info: one line per request, with its id, method, path (no query), status, duration, route and tier', () => {
    const [ok, failed] = linesFor('info', [200, 503]);
    expect(ok).toMatchObject({ level: 30, req: { method: 'GET', path: '/200' }, res: { status: 200 }, route: 'unmatched', tier: 'none', tenant_id: null });
    expect(ok.request_id).toEqual(expect.any(String));
    expect(ok.duration_ms).toEqual(expect.any(Number));
    expect(JSON.stringify(ok)).not.toContain('secret');
    expect(failed).toMatchObject({ level: 50, res: { status: 503 }, route: 'unmatched' });
  });

  it('below info (warn): no line for an answered request, the error line of a 5xx as at info (issue 34: the dropped line is not made)', () => {
    const lines = linesFor('warn', [200, 404, 500]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, req: { method: 'GET', path: '/500' }, res: { status: 500 }, route: 'unmatched', tier: 'none' });
    expect(lines[0]!.request_id).toEqual(expect.any(String));
  });
});
