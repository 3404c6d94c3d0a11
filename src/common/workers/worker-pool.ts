import { Worker } from 'node:worker_threads';
import { AppError } from '../http/app-error.js';

/** The bounds of one pool. */
export interface WorkerPoolOptions {
  /** Worker threads at most (started on first use, each running one job at a time). */
  size: number;
  /** Jobs waiting for a free worker at most; one more is 503 with Retry-After (`busyCode`). */
  maxQueued: number;
  /** A job running longer has its worker terminated (a fresh one takes the next job) and is 503. */
  timeoutMs: number;
  /** The 503 answers: their error code and what the message calls the work (`factsheets`). */
  busyCode: string;
  label: string;
}

interface Job<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

interface Slot<In, Out> {
  worker: Worker;
  job: Job<In, Out> | null;
  timer: NodeJS.Timeout | null;
}

/** What a pool's worker script answers for each job: `{ok: true, value}` or `{ok: false, message}`. */
export type WorkerReply<Out> = { ok: true; value: Out } | { ok: false; message: string };

/**
 * CPU-bound work off the main event loop (issue 30: a factsheet render must never stall /health): a few worker threads
 * running `script` (a plain ES module, so it runs alike from src/ under ts-jest and from dist/ when built), each
 * posted one job at a time and answering a `WorkerReply`. Beyond `maxQueued` waiting jobs the pool answers 503
 * instead of queueing without bound; a job over `timeoutMs` loses its worker (terminated) and is 503. Workers are
 * unref'd (they never keep the process alive) and ended by `close()`.
 */
export class WorkerPool<In, Out> {
  private readonly slots: Array<Slot<In, Out>> = [];
  private readonly queue: Array<Job<In, Out>> = [];
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly options: WorkerPoolOptions,
  ) {}

  /** Jobs running and waiting now. */
  get load(): { running: number; queued: number; workers: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length, workers: this.slots.length };
  }

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<Out>((resolve, reject) => {
      const job: Job<In, Out> = { input, resolve, reject };
      const idle = this.slots.find((s) => !s.job) ?? (this.slots.length < this.options.size ? this.spawn() : null);
      if (idle) return this.start(idle, job);
      if (this.queue.length >= this.options.maxQueued) return reject(this.busy(`${this.options.label} are busy, retry shortly`));
      this.queue.push(job);
    });
  }

  /** Ends every worker; queued and running jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the worker pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => this.end(s, new Error('the worker pool is closed'))));
  }

  private spawn(): Slot<In, Out> {
    const worker = new Worker(this.script);
    worker.unref();
    const slot: Slot<In, Out> = { worker, job: null, timer: null };
    worker.on('message', (reply: WorkerReply<Out>) => {
      const job = this.finish(slot);
      if (!job) return;
      if (reply.ok) job.resolve(reply.value);
      else job.reject(new Error(reply.message));
      this.next(slot);
    });
    worker.on('error', (err) => {
      this.drop(slot);
      this.finish(slot)?.reject(err);
      this.refill();
    });
    worker.on('exit', () => {
      if (!this.slots.includes(slot)) return;
      this.drop(slot);
      this.finish(slot)?.reject(new Error('the worker exited'));
      this.refill();
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot<In, Out>, job: Job<In, Out>): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      const timedOut = this.finish(slot);
      void this.end(slot, null);
      timedOut?.reject(this.busy(`${this.options.label}: a job took longer than ${this.options.timeoutMs} ms, retry shortly`));
      this.refill();
    }, this.options.timeoutMs);
    slot.timer.unref();
    slot.worker.postMessage(job.input);
  }

  private finish(slot: Slot<In, Out>): Job<In, Out> | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    return job;
  }

  private next(slot: Slot<In, Out>): void {
    const job = this.queue.shift();
    if (job) this.start(slot, job);
  }

  /** After a worker was lost: a new one takes the next waiting job. */
  private refill(): void {
    if (this.closed || this.queue.length === 0 || this.slots.length >= this.options.size) return;
    this.next(this.spawn());
  }

  private drop(slot: Slot<In, Out>): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
  }

  private async end(slot: Slot<In, Out>, err: Error | null): Promise<void> {
    this.drop(slot);
    const job = this.finish(slot);
    if (job && err) job.reject(err);
    await slot.worker.terminate();
  }

  private busy(message: string): AppError {
    return new AppError(503, message, this.options.busyCode, { 'Retry-After': '1' });
  }
}
