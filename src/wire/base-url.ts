import { log } from '../lib/log';
import { hostNameOf } from './host-name';

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The longest piece of a refused Host header the log shows. */
const LOGGED_HOST_LENGTH = 100;

/** Where the service is reached: PUBLIC_BASE_URL when set, else the host and port callers use. */
export interface PublicAddress {
  readonly publicBaseUrl: string | undefined;
  readonly port: number;
  /** A school of a district deployment: its path ("/slug"), which every address it names starts with. */
  readonly pathPrefix?: string;
  /** That school's own host name (its `--host`): on requests sent to it, its addresses are the bare paths there. */
  readonly hostName?: string;
}

/** The last Host header checked, and whether it was a valid one. */
let lastHost: string | undefined;
let lastHostValid = false;

/**
 * Whether a Host header is a plain host[:port] that makes a valid address: the pattern keeps
 * markup and paths out, and parsing it as a URL refuses what the pattern lets by (a port above
 * 65535, a malformed IPv6 literal, an IPv4 address out of range), which would fail wherever the
 * address is used.
 */
function isHost(hostHeader: string): boolean {
  // Callers send the same Host on every request: the last answer is kept, as the check costs
  // more (about 1.5 µs) than comparing two short strings.
  if (hostHeader === lastHost) return lastHostValid;
  lastHostValid = HOST_PATTERN.test(hostHeader) && URL.canParse(`http://${hostHeader}`);
  lastHost = hostHeader;
  return lastHostValid;
}

/**
 * The base URL that addresses in WSDL, DISCO and the pages name, and that a call reached the
 * service at: the configured public URL, or else the host the caller used. A Host header that is
 * not a valid host[:port] is not echoed; localhost and the service's port stand in for it, and
 * the log says so in one line.
 */
export function baseUrlFor(hostHeader: string | undefined, address: PublicAddress): string {
  if (address.pathPrefix === undefined) return hostBaseUrl(hostHeader, address);
  if (address.hostName !== undefined && hostNameOf(hostHeader) === address.hostName) {
    return ownHostBaseUrl(hostHeader as string, address.publicBaseUrl);
  }
  return hostBaseUrl(hostHeader, address) + address.pathPrefix;
}

/**
 * A school's base URL on its own host: the host as the caller sent it (a checked host name and
 * port), with PUBLIC_BASE_URL's scheme when it is set, as a balancer ending TLS is named there.
 */
function ownHostBaseUrl(hostHeader: string, publicBaseUrl: string | undefined): string {
  const scheme = publicBaseUrl?.startsWith('https:') ? 'https' : 'http';
  return `${scheme}://${hostHeader}`;
}

function hostBaseUrl(hostHeader: string | undefined, address: PublicAddress): string {
  if (address.publicBaseUrl) return address.publicBaseUrl;
  if (hostHeader && isHost(hostHeader)) return `http://${hostHeader}`;
  if (hostHeader) {
    log.warn('Host header is not a valid host; the service names its own address instead', {
      host: hostHeader.slice(0, LOGGED_HOST_LENGTH),
    });
  }
  return `http://localhost:${address.port}`;
}
