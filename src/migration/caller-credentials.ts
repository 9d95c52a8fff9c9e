import { SaxesParser } from 'saxes';
import { decodeBody, parseContentType } from '../wire/content-type';

/**
 * Takes this service's callers' credentials out of a SOAP request before it leaves (for the legacy
 * service, or for a recording): every `Security` header block (WS-Security, whatever its prefix or
 * namespace version, with its UsernameToken, PasswordText or PasswordDigest, Nonce and Created),
 * in SOAP 1.1 and 1.2 alike. The rest of the request keeps its bytes; the legacy service is given
 * only what LEGACY_URL gives it. HTTP credentials never leave: only named headers are passed on.
 */

/** The bytes and Content-Type of a request body as it may leave. */
export interface CleanBody {
  readonly body: Buffer;
  readonly contentType: string | undefined;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** Depths from the document's root: 1 the Envelope, 2 its Header, 3 a header block. */
const HEADER_DEPTH = 2;
const BLOCK_DEPTH = 3;

/** The spans (start, end) of the Security header blocks in the envelope's text. */
function securityBlocks(text: string): Array<[number, number]> {
  const parser = new SaxesParser();
  const spans: Array<[number, number]> = [];
  let depth = 0;
  let inHeader = false;
  let blockStart: number | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentagstart', (tag) => {
    depth++;
    if (depth === HEADER_DEPTH) inHeader = localName(tag.name) === 'Header';
    else if (depth === BLOCK_DEPTH && inHeader && localName(tag.name) === 'Security') {
      // The parser stands just past the tag's name: its '<' is the last one before.
      blockStart = text.lastIndexOf('<', parser.position - 1);
    }
  });
  parser.on('closetag', () => {
    if (depth === BLOCK_DEPTH && blockStart !== undefined) {
      spans.push([blockStart, parser.position]);
      blockStart = undefined;
    }
    depth--;
  });
  parser.write(text).close();
  return spans;
}

/**
 * A fallback for a body the strict parser will not read (the binding read it, so it is rare):
 * every element named Security, whatever its place, is cut; leaving one in is never the safe side.
 */
const ANY_SECURITY = /<([\w.-]+:)?Security\b[^>]*?(\/>|>[\s\S]*?<\/\1?Security\s*>)/g;

function withoutSecurityBlocks(text: string): string {
  let spans: Array<[number, number]>;
  try {
    spans = securityBlocks(text);
  } catch {
    return text.replace(ANY_SECURITY, '');
  }
  let kept = '';
  let from = 0;
  for (const [start, end] of spans) {
    kept += text.slice(from, start);
    from = end;
  }
  return kept + text.slice(from);
}

/**
 * A SOAP request body without the caller's Security header blocks. Unchanged when it has none; a
 * body in another charset than UTF-8 that had one leaves as UTF-8, its Content-Type saying so.
 */
export function withoutCallerCredentials(
  body: Buffer | undefined,
  contentType: string | undefined,
): CleanBody | undefined {
  if (body === undefined) return undefined;
  const charset = (parseContentType(contentType).parameters.get('charset') || 'utf-8').toLowerCase();
  const utf8 = charset === 'utf-8' || charset === 'utf8';
  if (utf8 && !body.includes('Security')) return { body, contentType };
  const text = decodeBody(body, parseContentType(contentType));
  // A body the binding could not read was refused before it could be passed on.
  if (text === undefined) return { body, contentType };
  const kept = withoutSecurityBlocks(text);
  if (kept === text) return { body, contentType };
  const type = utf8 ? contentType : contentType?.replace(/charset\s*=\s*("[^"]*"|[^;]*)/i, 'charset=utf-8');
  return { body: Buffer.from(kept, 'utf8'), contentType: type };
}
