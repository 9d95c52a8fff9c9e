import type { ReadResult } from './envelope-reading';
import { readWithSaxes } from './saxes-request-reader';

/**
 * Reads a SOAP request body: the envelope's namespace, whether it has a Body, the Body's first
 * element and that element's children with their text, and the Header (envelope-reading.ts),
 * with saxes (saxes-request-reader.ts). It records where each child is followed by the next
 * node, because ASMX reports a bad int at that position.
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
  return readWithSaxes(text);
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
