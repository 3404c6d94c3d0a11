import { describe, expect, it } from '@jest/globals';
import { VisitorGate } from './visitor-gate.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('VisitorGate (the visitor cookie race)', () => {
  it('a write waits until every request sent without the cookie has answered; reads never wait', async () => {
    let remembered = 0;
    const gate = new VisitorGate(false, () => remembered++);
    const firstCart = await gate.before('GET'); // slow: answers last
    const products = await gate.before('GET');
    expect([firstCart, products]).toEqual([true, true]);
    gate.done(products, 200);
    expect(remembered).toBe(1);
    let sent = false;
    const add = gate.before('POST').then((early) => {
      sent = true;
      return early;
    });
    expect(await gate.before('GET')).toBe(false); // a read sent now carries the cookie, and does not wait
    await tick();
    expect(sent).toBe(false); // the first cart read could still set another cookie
    gate.done(firstCart, 200);
    expect(await add).toBe(false);
    expect(sent).toBe(true);
    expect(remembered).toBe(1);
  });

  it('a browser that has the cookie never waits; a failed or refused first request releases the writes too', async () => {
    const known = new VisitorGate(true);
    expect(await known.before('POST')).toBe(false);

    const gate = new VisitorGate(false);
    const first = await gate.before('GET');
    let sent = false;
    const add = gate.before('POST').then((early) => ((sent = true), early));
    await tick();
    expect(sent).toBe(false);
    gate.done(first, null); // a network failure: no cookie came
    const addEarly = await add;
    expect(addEarly).toBe(true); // it goes, itself without the cookie
    let removed = false;
    const remove = gate.before('DELETE').then((early) => ((removed = true), early));
    await tick();
    expect(removed).toBe(false); // behind the write that will set the cookie
    gate.done(addEarly, 200);
    expect(await remove).toBe(false);
  });
});
