import { describe, expect, it } from '@jest/globals';
import { BuyersFirstGate, requestKind } from './buyers-first.js';

const P = '/api/2026-04-01';

describe('buyers first: request kinds', () => {
  it('cart and checkout requests are buyers; GET products and collections are catalogue reads; the rest neither', () => {
    expect(requestKind('POST', `${P}/cart/items`, P)).toBe('buyer');
    expect(requestKind('PUT', `${P}/checkouts/abc`, P)).toBe('buyer');
    expect(requestKind('POST', `${P}/checkouts`, P)).toBe('buyer');
    expect(requestKind('GET', `${P}/products`, P)).toBe('catalogue');
    expect(requestKind('GET', `${P}/products/facets`, P)).toBe('catalogue');
    expect(requestKind('GET', `${P}/collections/x/products`, P)).toBe('catalogue');
    for (const [m, path] of [
      ['POST', `${P}/products`],
      ['GET', `${P}/admin/products`],
      ['GET', `${P}/productsx`],
      ['GET', `${P}/cartography`],
      ['GET', '/health'],
    ])
      expect(requestKind(m, path, P)).toBeNull();
  });
});

describe('buyers first: the gate', () => {
  it('is open to any number of reads while no buyer is in flight', () => {
    const gate = new BuyersFirstGate(1);
    for (let i = 0; i < 10; i++) expect(typeof gate.read()).toBe('function');
    expect(gate.queued).toBe(0);
  });

  it('while a buyer is in flight, admits reads up to the limit and queues the others first come first served', async () => {
    const gate = new BuyersFirstGate(1);
    const endBuyer = gate.buyer();
    const first = gate.read();
    expect(typeof first).toBe('function');
    const order: number[] = [];
    const second = (gate.read() as Promise<() => void>).then((end) => (order.push(2), end));
    const third = (gate.read() as Promise<() => void>).then((end) => (order.push(3), end));
    expect(gate.queued).toBe(2);
    (first as () => void)();
    const endSecond = await second;
    expect(order).toEqual([2]);
    expect(gate.queued).toBe(1);
    endSecond();
    (await third)();
    expect(order).toEqual([2, 3]);
    endBuyer();
  });

  it('opens for every waiting read when the last buyer ends; an end called twice counts once', async () => {
    const gate = new BuyersFirstGate(1);
    const endBuyer = gate.buyer();
    const running = gate.read() as () => void;
    const waiting = [gate.read(), gate.read(), gate.read()];
    expect(gate.queued).toBe(3);
    endBuyer();
    endBuyer();
    expect(gate.queued).toBe(0);
    for (const w of waiting) expect(typeof (await w)).toBe('function');
    // a second buyer now: the four reads admitted above are running, so a new read waits
    const endAgain = gate.buyer();
    expect(typeof gate.read()).not.toBe('function');
    running();
    endAgain();
    expect(gate.queued).toBe(0);
  });
});
