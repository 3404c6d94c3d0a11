/**
 * Money as integer minor units inside (bigint-safe numbers well under 2^53), decimals on the wire.
 * One helper for every module: parse once, compute in integers, round once per line, format at the edge.
 */

/** Decimal (number or string, as from a `numeric` column) to minor units, rounding half away from zero. */
export function toMinor(value: number | string, precision = 2): number {
  const s = typeof value === 'number' ? value.toFixed(Math.max(precision + 4, 6)) : value.trim();
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${value}`);
  const [, sign, int = '0', frac = ''] = m;
  const padded = (frac + '0'.repeat(precision + 1)).slice(0, precision + 1);
  const raw = BigInt((int || '0') + padded.slice(0, precision));
  const roundUp = Number(padded[precision]) >= 5;
  const minor = Number(raw + (roundUp ? 1n : 0n));
  return sign === '-' ? -minor : minor;
}

/** Minor units to the decimal number the API sends (exact for any realistic amount). */
export function fromMinor(minor: number, precision = 2): number {
  return Number((minor / 10 ** precision).toFixed(precision));
}

/** Minor units to a decimal string (for `numeric` columns). */
export function minorToDecimalString(minor: number, precision = 2): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor)
    .toString()
    .padStart(precision + 1, '0');
  return precision === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -precision)}.${abs.slice(-precision)}`;
}

/** `minor * rate` converted between currencies and rounded once, with the rate as a decimal string. */
export function convertMinor(minor: number, rate: string, fromPrecision = 2, toPrecision = 2): number {
  const [i, f = ''] = rate.split('.');
  const scale = 10n ** BigInt(f.length);
  const r = BigInt(i + f);
  const shift = 10n ** BigInt(Math.abs(toPrecision - fromPrecision));
  let num = BigInt(minor) * r * (toPrecision >= fromPrecision ? shift : 1n);
  const den = scale * (toPrecision >= fromPrecision ? 1n : shift);
  const neg = num < 0n;
  if (neg) num = -num;
  const q = (num * 2n + den) / (2n * den); // half up
  return Number(neg ? -q : q);
}

/** Percentage of an amount in minor units, rounded once. */
export function percentOf(minor: number, percent: number | string): number {
  return convertMinor(minor, (Number(percent) / 100).toFixed(8).replace(/0+$/, '').replace(/\.$/, '') || '0');
}
