/**
 * Delay before retry number `attempt + 1` after `attempt` failed attempts: exponential from `baseMs`
 * (base, 2 base, 4 base, ...), capped at one hour, with "equal jitter" (a random value in [d/2, d]) so that
 * receivers that came back are not hit by every sender at the same moment.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exp = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.round(exp / 2 + random() * (exp / 2));
}
