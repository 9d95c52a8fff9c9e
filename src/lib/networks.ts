import { BlockList, isIP } from 'node:net';

/**
 * A list of networks in CIDR notation (10.0.0.0/8, 2001:db8::/32) or single addresses, and the
 * question asked of it: is this address in one of them. IPv4 clients of a dual-stack socket
 * appear as ::ffff:a.b.c.d, which node's BlockList matches against IPv4 networks as well.
 */
export interface NetworkList {
  /** The networks as given, for logs and listings. */
  readonly entries: readonly string[];
  contains(address: string): boolean;
}

export class NetworkError extends Error {}

/** One entry: `address` or `address/prefix`; throws a NetworkError naming what is wrong with it. */
function addEntry(list: BlockList, entry: string): void {
  const [address, prefixText, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) throw new NetworkError(`"${entry}" is not an IP address or CIDR network`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) {
    list.addAddress(address, type);
    return;
  }
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) {
    throw new NetworkError(`"${entry}" has no valid prefix length for an IPv${family} network`);
  }
  list.addSubnet(address, prefix, type);
}

/** The networks of a comma-separated list; an empty list contains no address. */
export function parseNetworks(text: string): NetworkList {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const list = new BlockList();
  for (const entry of entries) addEntry(list, entry);
  return {
    entries,
    contains: (address) => {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The client's address: the connection's, unless the connection comes from a trusted proxy; then
 * the rightmost address of X-Forwarded-For that is not itself a trusted proxy (the nearest one
 * the trusted proxies saw). Addresses further left were written by the client and prove nothing.
 */
export function clientAddress(
  connectionAddress: string,
  forwardedFor: string | string[] | undefined,
  trustedProxies: NetworkList,
): string {
  if (forwardedFor === undefined || !trustedProxies.contains(connectionAddress)) return connectionAddress;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim());
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    // Not an address: no network contains it, so the call is treated as coming from no one known.
    if (isIP(hops[index]) === 0) return 'invalid';
    if (!trustedProxies.contains(hops[index])) return hops[index];
  }
  // Every hop is a trusted proxy: the request started at the first of them.
  return hops[0];
}

const LOOPBACK = parseNetworks('127.0.0.0/8,::1');

/** Whether a URL's host name is this machine: localhost, 127.0.0.0/8 or ::1 (brackets as URL.hostname gives them). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || LOOPBACK.contains(host);
}
