import type { ReadResult } from './envelope-reading';
import { readCommonEnvelope } from './fast-request-reader';
import { readWithSaxes } from './saxes-request-reader';

/**
 * Reads a SOAP request body: the envelope's namespace, whether it has a Body, the Body's first
 * element and that element's children with their text, and the Header. The common envelope is
 * read by a small reader of its own (fast-request-reader.ts) at a fraction of saxes's cost;
 * whatever it does not handle is read by saxes (saxes-request-reader.ts), with the same result.
 * It records where each child is followed by the next node, because ASMX reports a bad int at
 * that position.
 */

export {
  type BodyElement,
  type ChildElement,
  MAX_ATTRIBUTES,
  MAX_ELEMENT_DEPTH,
  MAX_NAMESPACE_DECLARATIONS,
  type ReadResult,
  type RefusalKind,
} from './envelope-reading';

export function readSoapRequest(text: string): ReadResult {
  return readCommonEnvelope(text) ?? readWithSaxes(text);
}

/** 1-based line and column of an offset, counting line breaks as XML does (CRLF, CR or LF). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 10 || (char === 13 && text.charCodeAt(index + 1) !== 10)) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
