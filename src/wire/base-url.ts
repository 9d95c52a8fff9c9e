const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Where the service is reached: PUBLIC_BASE_URL when set, else the host and port callers use. */
export interface PublicAddress {
  readonly publicBaseUrl: string | undefined;
  readonly port: number;
}

/**
 * The base URL that addresses in WSDL, DISCO and the pages name, and that a call reached the
 * service at: the configured public URL, or else the host the caller used. A Host header that is
 * not a plain host[:port] is not echoed; localhost and the service's port stand in for it.
 */
export function baseUrlFor(hostHeader: string | undefined, address: PublicAddress): string {
  if (address.publicBaseUrl) return address.publicBaseUrl;
  return `http://${hostHeader && HOST_PATTERN.test(hostHeader) ? hostHeader : `localhost:${address.port}`}`;
}
