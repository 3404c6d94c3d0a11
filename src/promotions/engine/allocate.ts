/**
 * Splitting a discount over lines (or units) in integer minor units: pro rata to the weights, the remainder cents
 * going one by one to the largest fractional parts, ties to the earlier index (the canonical line order). The parts
 * always add up to `amount` exactly and none exceeds its weight when `amount <= sum(weights)`.
 */
export function allocateLargestRemainder(amount: number, weights: readonly number[]): number[] {
  const parts = weights.map(() => 0);
  const total = weights.reduce((s, w) => s + w, 0);
  if (amount <= 0 || total <= 0) return parts;
  if (Math.min(amount, total) * Math.max(...weights) <= Number.MAX_SAFE_INTEGER) return allocateSafe(Math.min(amount, total), weights, total, parts);
  const big = BigInt(Math.min(amount, total));
  const bigTotal = BigInt(total);
  const remainders: Array<{ index: number; rem: bigint }> = [];
  let given = 0n;
  for (let i = 0; i < weights.length; i++) {
    const exact = big * BigInt(weights[i]);
    const q = exact / bigTotal;
    parts[i] = Number(q);
    given += q;
    remainders.push({ index: i, rem: exact % bigTotal });
  }
  let left = Number(big - given);
  remainders.sort((a, b) => (a.rem === b.rem ? a.index - b.index : a.rem > b.rem ? -1 : 1));
  for (let k = 0; left > 0 && k < remainders.length; k++) {
    const i = remainders[k].index;
    if (parts[i] < weights[i]) {
      parts[i]++;
      left--;
    }
  }
  return parts;
}

/** The same in plain numbers when every product stays exact (the usual case). */
function allocateSafe(amount: number, weights: readonly number[], total: number, parts: number[]): number[] {
  const rems: number[] = [];
  let left = amount;
  for (let i = 0; i < weights.length; i++) {
    const exact = amount * weights[i];
    parts[i] = Math.floor(exact / total);
    if (parts[i] * total > exact) parts[i]--; // a quotient rounded up by the division
    left -= parts[i];
    rems.push(exact - parts[i] * total);
  }
  const order = weights.map((_, i) => i).sort((a, b) => rems[b] - rems[a] || a - b);
  for (let k = 0; left > 0 && k < order.length; k++) {
    const i = order[k];
    if (parts[i] < weights[i]) {
      parts[i]++;
      left--;
    }
  }
  return parts;
}

/** `percent` (up to 4 decimals) of an amount in minor units, rounded half up once. */
export function percentOfMinor(minor: number, percent: number): number {
  const scaled = BigInt(Math.round(percent * 10_000));
  const num = BigInt(minor) * scaled;
  const den = 1_000_000n;
  return Number((num * 2n + den) / (2n * den));
}
