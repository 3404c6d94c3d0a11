import { afterEach, describe, expect, it } from '@jest/globals';
import { threadId } from 'node:worker_threads';
import { AppError } from '../../src/common/http/app-error.js';
import { WorkerPool, WorkerPoolOptions } from '../../src/common/workers/worker-pool.js';
import type { FactsheetPage } from '../../src/catalogue/factsheet.service.js';

interface Spin {
  spinMs?: number;
  echo?: string;
  fail?: boolean;
  exit?: boolean;
}

const SPIN = new URL('./fixtures/spin-worker.mjs', import.meta.url);
const FACTSHEET = new URL('../../src/catalogue/factsheet-worker.mjs', import.meta.url);
const pools: Array<WorkerPool<unknown, unknown>> = [];

function pool<In, Out>(script: URL, o: Partial<WorkerPoolOptions> = {}): WorkerPool<In, Out> {
  const p = new WorkerPool<In, Out>(script, { size: 2, maxQueued: 10, timeoutMs: 20_000, busyCode: 'spins_busy', label: 'spins', ...o });
  pools.push(p as WorkerPool<unknown, unknown>);
  return p;
}

/** Times the main event loop ran a 10 ms interval while `during` ran: none when `during` blocks the main thread. */
async function ticksDuring(during: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 10);
  try {
    await during();
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

const caught = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

describe('WorkerPool (issue 30: CPU-bound work off the event loop)', () => {
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('runs each job in a worker thread, at most `size` at once, and the main loop keeps running meanwhile', async () => {
    const p = pool<Spin, { echo: string; threadId: number }>(SPIN, { size: 2 });
    let answers: Array<{ echo: string; threadId: number }> = [];
    const ticks = await ticksDuring(async () => {
      answers = await Promise.all(['a', 'b', 'c'].map((echo) => p.run({ spinMs: 400, echo })));
    });
    expect(answers.map((a) => a.echo)).toEqual(['a', 'b', 'c']);
    expect(answers.every((a) => a.threadId !== threadId)).toBe(true);
    expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
    expect(p.load.workers).toBe(2);
    // 800 ms of spinning at least: a spin on the main thread would have let no tick run at all
    expect(ticks).toBeGreaterThan(10);
  });

  it('beyond `maxQueued` waiting jobs answers 503 with Retry-After, and the accepted jobs still complete', async () => {
    const p = pool<Spin, { echo: string }>(SPIN, { size: 1, maxQueued: 1 });
    const first = p.run({ spinMs: 300, echo: '1' });
    const second = p.run({ echo: '2' });
    const third = (await caught(p.run({ echo: '3' }))) as AppError;
    expect(third).toBeInstanceOf(AppError);
    expect({ status: third.status, code: third.code, headers: third.headers, message: third.message }).toEqual({
      status: 503,
      code: 'spins_busy',
      headers: { 'Retry-After': '1' },
      message: 'spins are busy, retry shortly',
    });
    expect((await first).echo).toBe('1');
    expect((await second).echo).toBe('2');
    expect(p.load).toEqual({ running: 0, queued: 0, workers: 1 });
  });

  it('a job over `timeoutMs` is 503 and its worker replaced; a failing job or a dying worker rejects only its own job', async () => {
    // a fresh worker's start counts against the limit too: generous, for a loaded machine
    const p = pool<Spin, { echo: string; threadId: number }>(SPIN, { size: 1, timeoutMs: 1_500 });
    const stuck = p.run({ spinMs: 30_000, echo: 'stuck' });
    const after = p.run({ echo: 'after' });
    const err = (await caught(stuck)) as AppError;
    expect([err.status, err.code, err.message]).toEqual([503, 'spins_busy', 'spins: a job took longer than 1500 ms, retry shortly']);
    expect((await after).echo).toBe('after');

    expect(((await caught(p.run({ fail: true, echo: 'x' }))) as Error).message).toBe('failed x');
    expect(((await caught(p.run({ exit: true }))) as Error).message).toBe('the worker exited');
    expect((await p.run({ echo: 'again' })).echo).toBe('again');
  });

  it('close() refuses queued and new jobs', async () => {
    const p = pool<Spin, unknown>(SPIN, { size: 1 });
    const running = caught(p.run({ spinMs: 200 }));
    const queued = caught(p.run({}));
    await p.close();
    expect(((await queued) as Error).message).toBe('the worker pool is closed');
    expect(((await running) as Error).message).toBe('the worker pool is closed');
    expect(((await caught(p.run({}))) as Error).message).toBe('the worker pool is closed');
  });

  it('the factsheet worker renders a PDF off the main thread, even of text no cap has bounded', async () => {
    const p = pool<FactsheetPage, Uint8Array>(FACTSHEET, { size: 1 });
    const page: FactsheetPage = { title: 'Merlot', path: 'Red / Ticino', facts: ['Price: 24.90 CHF'], text: 'Deep red. '.repeat(50) };
    const pdf = Buffer.from(await p.run(page));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // one 20,000-character word (what the text caps prevent): pdfkit's wrapping takes long, in the worker only
    const started = Date.now();
    const ticks = await ticksDuring(() => p.run({ ...page, text: 'W'.repeat(20_000) }));
    // on the main thread not one 10 ms tick would run until it ends; here most of them do
    expect(ticks).toBeGreaterThanOrEqual(Math.floor((Date.now() - started) / 40));
  });
});
