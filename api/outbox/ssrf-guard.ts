import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Keeps webhook deliveries away from the service's own network: loopback, private, link-local
 * (including the 169.254.169.254 metadata address), CGNAT, unique-local, multicast, reserved and
 * IPv4-mapped/translated IPv6 forms of them. The check runs on every address the resolver returns,
 * at connect time, so a hostname that later resolves somewhere else (DNS rebinding) is still refused.
 */

export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  readonly code = 'EFORBIDDENADDRESS';
}

/** The setting that lets webhook targets be local or plain http, named in every refusal. */
export const ALLOW_PRIVATE_SETTING = 'WEBHOOK_ALLOW_PRIVATE=true';

/**
 * Why an address may not be contacted, or undefined when it is a public unicast address. Every IPv6
 * range that embeds an IPv4 address (mapped, NAT64, SIIT, 6to4, Teredo) is reported by ipaddr.js as a
 * range of its own and refused; the deprecated IPv4-compatible form (::/96, `::7f00:1` for
 * `::127.0.0.1`) is not, and some stacks still route it to the IPv4 address, so it is refused here.
 */
export function forbiddenReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((p) => p === 0) && v6.range() === 'unicast') {
      return 'is an IPv4-compatible IPv6 address (::/96)';
    }
  }
  const range = ip.range();
  if (range === 'unicast') return undefined;
  return `is a ${range} address`;
}

/** Host names that can only mean this machine or its local network. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h === 'metadata' ||
    !h.includes('.')
  );
}

/**
 * Problems with a subscription URL found without resolving it: scheme, credentials, literal
 * forbidden addresses (the WHATWG parser already turned `0x7f000001` or `2130706433` into
 * `127.0.0.1`) and local names. Returns the detail text, or undefined when the URL is acceptable.
 */
export function checkTargetUrl(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate
      ? 'must be an http or https URL'
      : `must be an https URL (plain http is allowed only when the server runs with ${ALLOW_PRIVATE_SETTING})`;
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a fragment';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const reason = forbiddenReason(host);
    return reason ? `points at ${host}, which ${reason}${LOCAL_HINT}` : undefined;
  }
  if (isLocalHostname(host)) return `points at ${host}, a local host name${LOCAL_HINT}`;
  return undefined;
}

const LOCAL_HINT = ` (local receivers are allowed only when the server runs with ${ALLOW_PRIVATE_SETTING})`;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * A `lookup` for `http.request`/`net.connect` that resolves with `resolve` and fails when any
 * returned address is forbidden (refusing all of them leaves no address to rebind to).
 */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname)
      .then((addresses) => {
        for (const a of addresses) {
          const reason = forbiddenReason(a.address);
          if (reason)
            throw new ForbiddenAddressError(`${hostname} resolves to ${a.address}, which ${reason}`);
        }
        if (addresses.length === 0) throw new Error(`${hostname} did not resolve`);
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, []));
  };
}
