/** A parsed Content-Type header: the media type in lower case and its parameters. */
export interface ContentType {
  readonly mediaType: string;
  readonly parameters: ReadonlyMap<string, string>;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/**
 * Parses leniently, as clients in the field send `text/xml;charset=utf-8`, quoted charsets and
 * quoted or unquoted SOAP 1.2 action parameters.
 */
export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mediaType: '', parameters: new Map() };
  const [mediaType, ...rest] = header.split(';');
  const parameters = new Map<string, string>();
  for (const part of rest) {
    const equals = part.indexOf('=');
    if (equals > 0) parameters.set(part.slice(0, equals).trim().toLowerCase(), unquote(part.slice(equals + 1)));
  }
  return { mediaType: mediaType.trim().toLowerCase(), parameters };
}

/**
 * Decodes a body in the charset its Content-Type names (UTF-8 when none), dropping a BOM.
 * Undefined for an unknown charset or bytes that are not valid in it: such a body cannot be read.
 */
export function decodeBody(body: Buffer, contentType: ContentType): string | undefined {
  const charset = contentType.parameters.get('charset') || 'utf-8';
  try {
    return new TextDecoder(charset, { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    return undefined;
  }
}
