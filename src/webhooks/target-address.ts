import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard of webhook targets: only public unicast addresses may be reached. Loopback, private (RFC 1918),
 * link-local (169.254.0.0/16, cloud metadata included), CGNAT (100.64.0.0/10), unique-local (fc00::/7), unspecified,
 * multicast, broadcast and reserved ranges are refused; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
export function isBlockedAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() !== 'unicast';
}

export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKEDTARGET';
}

/** Every address a host name resolves to (an IP literal resolves to itself). */
export function resolveAll(hostname: string): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return Promise.resolve([{ address: host, family: host.includes(':') ? 6 : 4 }]);
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** An IP-literal host never reaches `lookup` (net.connect skips DNS for it): judged here. Throws when blocked. */
export function checkLiteralHost(hostname: string, allowPrivate: boolean): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && isBlockedAddress(host)) throw new BlockedTargetError(`${host} is not an allowed address`);
}

/**
 * A `lookup` for http.request/https.request: resolves once, refuses when any address is blocked, and hands the
 * connection the very address it checked (no second resolution between the check and the connect).
 */
export function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean } | number, callback: (...args: unknown[]) => void): void => {
    resolveAll(hostname).then(
      (addresses) => {
        if (!allowPrivate && (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address)))) {
          callback(new BlockedTargetError(`${hostname} resolves to an address that is not allowed`));
          return;
        }
        const all = typeof options === 'object' && options?.all;
        if (all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: unknown) => callback(err),
    );
  };
}
