import { DEFAULT_REQUEST_BUDGETS } from '../../config/request-budgets';
import type { ReadResult } from './envelope-reading';
import { readCommonEnvelope } from './fast-request-reader';
import { readWithSaxes } from './saxes-request-reader';
import { XmlBudget } from '../../wire/xml-budget';

/**
 * Reads a SOAP request body: the envelope's namespace, whether it has a Body, the Body's first
 * element and that element's children with their text, and the Header. The common envelope is
 * read by a small reader of its own (fast-request-reader.ts) at a fraction of saxes's cost;
 * whatever it does not handle is read by saxes (saxes-request-reader.ts), with the same result.
 * It records where each child is followed by the next node, because ASMX reports a bad int at
 * that position.
 */

export type { BodyElement, ChildElement, ReadResult, RefusalKind } from './envelope-reading';

/**
 * The request's read within the budgets. When the fast reader gives up part way, saxes reads the
 * text again with budgets counted afresh: the fast reader stops at the first excess as saxes
 * would, so a body it gave up on had kept them up to there.
 */
export function readSoapRequest(text: string, budgets = DEFAULT_REQUEST_BUDGETS): ReadResult {
  return readCommonEnvelope(text, new XmlBudget(budgets)) ?? readWithSaxes(text, new XmlBudget(budgets));
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
