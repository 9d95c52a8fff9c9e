/** A Host header's name: letters, digits, dots and "-", with an optional port and the final dot of a full name. */
const HOST_HEADER = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)\.?(?::\d{1,5})?$/;

/**
 * The host name a request was sent to, as a school's `--host` is written: its Host header without
 * the port, in lower case; undefined when the header is missing or is not a host name (an IP
 * literal in brackets, markup), so that it can never match a school.
 */
export function hostNameOf(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined || hostHeader.length > 260) return undefined;
  const name = HOST_HEADER.exec(hostHeader)?.[1];
  return name?.toLowerCase();
}
