import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Where a CSV file first breaks the format: a quote inside an unquoted field, a character after a
 * closing quote, or a quote never closed (reported where it opened). csv-parse reads ahead of the
 * rows handed out and counts lines its own way, so when it fails the file is scanned again here to
 * say the line (CRLF, LF or CR each end one) and the field (1 for the first) of the fault.
 */
export interface SyntaxFault {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

enum State {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

export async function locateSyntaxError(source: Readable): Promise<SyntaxFault | undefined> {
  const decoder = new StringDecoder('utf8');
  let state = State.FieldStart;
  let line = 1;
  let field = 0;
  let opened: SyntaxFault = { line: 1, column: 1, message: '' };
  let afterCr = false;
  let first = true;
  try {
    for await (const chunk of source) {
      let text = decoder.write(chunk as Buffer);
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      for (const char of text) {
        const lineBreak = char === '\n' || char === '\r';
        // A CRLF is one line end: its LF neither counts nor ends another record.
        if (char === '\n' && afterCr) {
          afterCr = false;
          continue;
        }
        afterCr = char === '\r';
        if (state === State.Quoted) {
          if (char === '"') state = State.QuoteInQuoted;
          else if (lineBreak) line += 1;
          continue;
        }
        if (state === State.QuoteInQuoted && char === '"') {
          state = State.Quoted;
          continue;
        }
        if (state === State.FieldStart && char === '"') {
          opened = { line, column: field + 1, message: 'a quote opens this field and is never closed' };
          state = State.Quoted;
          continue;
        }
        if (char === ',') {
          field += 1;
          state = State.FieldStart;
        } else if (lineBreak) {
          line += 1;
          field = 0;
          state = State.FieldStart;
        } else if (state === State.QuoteInQuoted) {
          return { line, column: field + 1, message: `"${char}" follows the closing quote of a quoted field` };
        } else if (char === '"') {
          return { line, column: field + 1, message: 'a quote inside a field that does not start with one' };
        } else state = State.Unquoted;
      }
    }
  } finally {
    source.destroy();
  }
  return state === State.Quoted ? opened : undefined;
}
