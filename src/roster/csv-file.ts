import { parse } from 'csv-parse';
import { BundleStop } from './bundle-stop';
import type { Bundle } from './bundle-source';
import { restoreCell } from './spreadsheet-cells';
import { locateSyntaxError } from './csv-syntax';

/**
 * One CSV file of a bundle, read as a stream of rows with the line each starts on. csv-parse
 * handles the format as SIS exports write it (a BOM or none, CRLF or LF, quoted fields holding
 * commas, quotes and line breaks); lines are counted here from the fields' own line breaks,
 * since the parser's count is off for CRLF inside quotes. Empty lines are skipped. Header names
 * are matched without regard to case or surrounding spaces; extra columns are ignored.
 */
export interface CsvRow {
  readonly line: number;
  readonly values: readonly string[];
}

export interface CsvFile {
  readonly name: string;
  /** Lower-cased header name -> the field's index. */
  readonly header: ReadonlyMap<string, number>;
  /** The header's names as the file spells them, trimmed, by index. */
  readonly names: readonly string[];
  readonly rows: AsyncIterable<CsvRow>;
  /** Bytes of the file read so far, for progress. */
  bytesRead(): number;
}

/** A field longer than this is no value any file here holds: the row is refused rather than kept in memory. */
const MAX_RECORD_BYTES = 1_000_000;

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    /** The field's position in its row (1 for the first), as the parser saw it. */
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

export async function openCsv(bundle: Bundle, name: string): Promise<CsvFile> {
  const source = await bundle.open(name);
  let bytes = 0;
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const parser = source.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let nextLine = 1;
  const lineBreaks = (values: readonly string[]) =>
    values.reduce((count, value) => count + (value.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
  const next = async (): Promise<CsvRow | undefined> => {
    try {
      for (;;) {
        const result = await records.next();
        if (result.done) return undefined;
        const line = nextLine;
        nextLine += 1 + lineBreaks(result.value);
        if (result.value.length === 1 && result.value[0].trim() === '') continue;
        // A cell an export neutralised for a spreadsheet is read as the value it stands for.
        return { line, values: result.value.map(restoreCell) };
      }
    } catch (error) {
      // A fault of the whole bundle (a bound, a sync's reading that failed) stops the import, not just this file.
      if (error instanceof BundleStop) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof CsvSyntaxError) throw error;
      // csv-parse reads ahead and counts lines its own way: the file is scanned again for the fault's place.
      const fault = await locateSyntaxError(await bundle.open(name)).catch(() => undefined);
      const where = message.includes('Max Record Size') ? undefined : fault;
      const text = where ? `not CSV: ${where.message}` : message.replace(/ at line \d+.*$/s, '');
      throw new CsvSyntaxError(where?.line ?? nextLine, where?.column ?? 1, text);
    }
  };
  const first = await next();
  const header = new Map<string, number>();
  first?.values.forEach((value, index) => {
    const key = value.trim().toLowerCase();
    if (!header.has(key)) header.set(key, index);
  });
  return {
    name,
    header,
    names: first?.values.map((value) => value.trim()) ?? [],
    bytesRead: () => bytes,
    rows: {
      async *[Symbol.asyncIterator]() {
        try {
          for (let row = await next(); row; row = await next()) yield row;
        } finally {
          parser.destroy();
          source.destroy();
        }
      },
    },
  };
}
