// The EU unit price (Directive 98/6/EC, art. 3; in Germany the PAngV § 4): wine sold by volume shows its price per
// litre next to the selling price. The volume is read from the variant's size as the API names it ("75 cl",
// "37.5 cl", "150 cl (Magnum)", "1.5 l", "500 ml"); a size without a volume gives no unit price.

const UNITS: Record<string, number> = { ml: 1, cl: 10, dl: 100, l: 1000 };

/** The volume in millilitres named by a size text, or null when it names none. */
export function millilitresOf(size: string | null | undefined): number | null {
  const m = /(\d+(?:[.,]\d+)?)\s*(ml|cl|dl|l)\b/i.exec(size ?? '');
  if (!m) return null;
  const ml = Math.round(Number(m[1]!.replace(',', '.')) * UNITS[m[2]!.toLowerCase()]!);
  return ml > 0 ? ml : null;
}

/**
 * The price per litre of a price (the API's decimal amount) for a volume in millilitres: computed in minor units
 * (integer cents, rounded half up) and given back as a decimal amount for `money()`; null without a volume.
 */
export function pricePerLitre(price: number, ml: number | null, decimals = 2): number | null {
  if (ml === null || !(ml > 0) || !Number.isFinite(price)) return null;
  const scale = 10 ** decimals;
  const minor = Math.round(price * scale);
  return Math.round((minor * 1000) / ml) / scale;
}
