// The variant's quantity rule as the API checks it at POST /cart/items (src/pricing/cart-pricing.ts): at least `min`,
// at most `max`, and a multiple of `increment` itself.

/** The quantity rule of a variant, as the API answers it. */
export interface QuantityRule {
  min: number;
  max: number | null;
  increment: number;
}

export function checkQuantity(q: number, rule: QuantityRule): boolean {
  if (!Number.isFinite(q) || q < rule.min) return false;
  if (rule.max !== null && q > rule.max) return false;
  // as the API checks it: a multiple of the increment itself (min 1 in steps of 2 takes 2, 4, …, not 1 or 3)
  const inc = rule.increment || 1;
  const steps = q / inc;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** The smallest quantity the rule accepts: the first multiple of the increment at or above the minimum. */
export function firstQuantity(rule: QuantityRule): number {
  const inc = rule.increment || 1;
  return Math.max(inc, Math.ceil((rule.min || 1) / inc - 1e-9) * inc);
}
