import type { NextFunction, Request, Response } from 'express';

/**
 * Buyers first (issue 34): while a cart or checkout request is in flight, at most `limit` catalogue reads are
 * evaluated at once; the others wait, first come first served, until a read ends or no buyer request is left. A
 * catalogue answer is mostly CPU on the one event loop, so ten browsers at full speed put ten evaluations between a
 * buyer's database round trips; with the gate there is at most `limit`. With no buyer in flight the gate is open, so
 * browsing alone keeps its speed, and reads are only ever delayed, never refused.
 */
export class BuyersFirstGate {
  private buyers = 0;
  private reads = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** A buyer request started; the returned function ends it (once). */
  buyer(): () => void {
    this.buyers += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.buyers -= 1;
      this.release();
    };
  }

  /** Resolves when a catalogue read may start; the resolved function ends it (once). */
  read(): Promise<() => void> | (() => void) {
    if (this.open()) return this.start();
    return new Promise((resolve) => this.waiting.push(() => resolve(this.start())));
  }

  /** Reads waiting for the gate (metrics and tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private open(): boolean {
    return this.buyers === 0 || this.reads < this.limit;
  }

  private start(): () => void {
    this.reads += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.reads -= 1;
      this.release();
    };
  }

  private release(): void {
    while (this.waiting.length > 0 && this.open()) this.waiting.shift()!();
  }
}

/** The request's kind for the gate: a buyer's (cart, checkout), a catalogue read (GET products, collections), or neither. */
export function requestKind(method: string, path: string, apiPrefix: string): 'buyer' | 'catalogue' | null {
  if (!path.startsWith(apiPrefix)) return null;
  const rest = path.slice(apiPrefix.length);
  if (/^\/(cart|checkouts)(\/|$)/.test(rest)) return 'buyer';
  if ((method === 'GET' || method === 'HEAD') && /^\/(products|collections)(\/|$)/.test(rest)) return 'catalogue';
  return null;
}

/** Express middleware applying the gate (`limit` 0: off). */
export function buyersFirst(limit: number, apiPrefix: string): (req: Request, res: Response, next: NextFunction) => void {
  if (limit <= 0) return (_req, _res, next) => next();
  const gate = new BuyersFirstGate(limit);
  // named: the list fast lane's e2e finds it among the app's middleware
  return function buyersFirstGate(req, res, next) {
    const kind = requestKind(req.method, req.path, apiPrefix);
    if (kind === 'buyer') {
      const end = gate.buyer();
      res.once('finish', end);
      res.once('close', end);
      return next();
    }
    if (kind !== 'catalogue') return next();
    const admitted = gate.read();
    if (typeof admitted === 'function') {
      res.once('finish', admitted);
      res.once('close', admitted);
      return next();
    }
    let gone = false;
    const onClose = () => (gone = true);
    res.once('close', onClose);
    void admitted.then((end) => {
      res.off('close', onClose);
      if (gone) return end();
      res.once('finish', end);
      res.once('close', end);
      next();
    });
  };
}
