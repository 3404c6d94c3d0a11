/**
 * CPU throttling for the browser budgets, relative to the host (examples/storefront/README.md, "Throttled budgets").
 *
 * `Emulation.setCPUThrottlingRate` slows the page by a factor of the host's own speed, so a fixed 4× emulates a faster
 * device on a fast machine and a slower one on a slow or busy one. The budgets were set with 4× on a machine that ran
 * this project's server about twice as fast as session 19's, whose Chromium measures a BenchmarkIndex of about 1,240
 * (quiet; 4× there measured 223, below Chrome DevTools' low-tier mobile preset of 264): 4× on the first machine was a
 * device of about 600, an estimate from that ratio. The rate is 4 unless that would emulate a device slower than
 * BenchmarkIndex 600; then the host's index over 600, and never below 1.
 *
 * BenchmarkIndex is Lighthouse's measure of a browser's speed (its page function computeBenchmarkIndex, README
 * there: "1000+ is a desktop-class device, 800+ a high-end Android phone, 125+ a mid-tier Android phone"): the mean of
 * two rates over half a second each, in tens per second, of building a 10,000-character string and of copying a
 * 100,000-element array. The expression below measures the same two rates.
 */

/** The slowest device the budgets emulate. */
export const TARGET_BENCHMARK_INDEX = 600;
/** The budgets' rate on a host fast enough. */
export const MAX_THROTTLING_RATE = 4;

/** An expression for `page.evaluate`: the page's BenchmarkIndex (about one second of the page's CPU). */
export const BENCHMARK_INDEX = `(() => {
  const perTenthSecond = (started, rounds) => Math.round(rounds / 10 / ((Date.now() - started) / 1000));
  const strings = () => {
    const started = Date.now();
    let rounds = 0;
    while (Date.now() - started < 500) {
      let s = '';
      for (let j = 0; j < 10000; j++) s += 'a';
      if (s.length === 1) throw new Error('unreachable: keeps the loop from being optimized away');
      rounds++;
    }
    return perTenthSecond(started, rounds);
  };
  const copies = () => {
    const a = [];
    const b = [];
    for (let i = 0; i < 100000; i++) a[i] = b[i] = i;
    const started = Date.now();
    let rounds = 0;
    while (rounds % 10 !== 0 || Date.now() - started < 500) {
      const from = rounds % 2 === 0 ? a : b;
      const to = rounds % 2 === 0 ? b : a;
      for (let j = 0; j < from.length; j++) to[j] = from[j];
      rounds++;
    }
    return perTenthSecond(started, rounds);
  };
  return (strings() + copies()) / 2;
})()`;

/** The throttling rate for a host of this BenchmarkIndex: 4, or less where 4 would emulate a device below 600. */
export function throttlingRate(hostIndex: number): number {
  if (!Number.isFinite(hostIndex) || hostIndex <= 0) return MAX_THROTTLING_RATE;
  const rate = hostIndex / TARGET_BENCHMARK_INDEX;
  // rounded down to a hundredth, so the device emulated is never below the target
  return Math.floor(Math.min(MAX_THROTTLING_RATE, Math.max(1, rate)) * 100) / 100;
}
