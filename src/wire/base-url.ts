import type { IncomingMessage } from 'node:http';

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The base URL that addresses in WSDL, DISCO and the pages name: the configured public URL, or
 * else the host the caller used. A Host header that is not a plain host[:port] is not echoed.
 */
export function baseUrlFor(request: IncomingMessage, publicBaseUrl: string | undefined, fallbackHost: string): string {
  if (publicBaseUrl) return publicBaseUrl;
  const host = request.headers.host;
  return `http://${host && HOST_PATTERN.test(host) ? host : fallbackHost}`;
}
