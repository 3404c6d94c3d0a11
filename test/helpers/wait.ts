/** Polling for work the service finishes after the response (outbox, webhooks, jobs, cache-bus notifications). */

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Probes every `every` ms until `ok` holds or `ms` have passed, and returns the last value: the test asserts on it. */
export async function waitFor<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean, ms = 5000, every = 25): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await sleep(every);
  }
}

/** Probes until it returns a truthy value and returns it with the time it took; throws `<what>: not within <ms> ms`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 1_000, every = 10): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return { value, ms: Date.now() - start };
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(every);
  }
}
