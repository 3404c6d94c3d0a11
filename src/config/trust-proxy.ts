import { isIP } from 'node:net';

/** The widest range `TRUST_PROXY` may name: a /8 of IPv4, a /32 of IPv6 (an IPv4-mapped IPv6 range counts as IPv4). */
export const TRUST_PROXY_MIN_PREFIX = { ipv4: 8, ipv6: 32 } as const;

/**
 * Why a `TRUST_PROXY` value is refused, or null when it is accepted: empty, a hop count, or addresses/CIDRs separated
 * by commas, each a valid address whose range is no wider than a /8 (IPv4) or a /32 (IPv6). Wider ranges
 * (`0.0.0.0/1,128.0.0.0/1`) would believe every client's `X-Forwarded-For`.
 */
export function trustProxyProblem(value: string): string | null {
  const v = value.trim();
  if (v === '' || /^\d{1,2}$/.test(v)) return null;
  for (const entry of v.split(',').map((s) => s.trim())) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
      return `"${entry}" is not an address or CIDR (expected a hop count like 1, or addresses/CIDRs like 10.0.0.0/8,127.0.0.1)`;
    }
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : Number(prefix);
    if (length > bits) return `"${entry}" has a prefix longer than /${bits}`;
    const mapped = family === 6 && /^::ffff:/i.test(address!);
    const min = family === 4 ? TRUST_PROXY_MIN_PREFIX.ipv4 : mapped ? 96 + TRUST_PROXY_MIN_PREFIX.ipv4 : TRUST_PROXY_MIN_PREFIX.ipv6;
    if (length < min) {
      return `"${entry}" is wider than /${min} and would trust nearly every client's X-Forwarded-For; name your proxies' own addresses or ranges`;
    }
  }
  return null;
}
