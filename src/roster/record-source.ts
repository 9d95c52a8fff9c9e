import { Readable } from 'node:stream';
import type { Bundle } from './bundle-source';
import { csvLine } from './csv-line';

/**
 * OneRoster records that come from elsewhere than a CSV bundle (a OneRoster REST sync, say), as a
 * bundle the import reads exactly as it reads a school's CSV export: the same mapping, inference,
 * warnings, problems and write. Each file is written as CSV on the fly, row by row, so that there
 * is one reader of OneRoster rows and no second mapping to keep in step with it.
 *
 * - `manifest`: the manifest's facts, propertyName -> value (`oneroster.version` `1.1`,
 *   `file.users` `bulk`|`delta`|`absent`, ...). A file must be declared `bulk` or `delta` to be read.
 * - `files`: per OneRoster file name without `.csv` (`users`, `classes`, ...), a function giving
 *   an async iterable of rows keyed by the CSV binding's column headers (`sourcedId`,
 *   `orgSourcedIds`, `metadata.nameEn`, ...), every value a string ('' for none; lists
 *   comma-separated as the CSV binding has them). The header is the first row's keys; a key only
 *   later rows have is not read: give every row the same keys. A file is iterated once.
 */
export interface RosterRecords {
  readonly manifest: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, () => AsyncIterable<Readonly<Record<string, string>>>>;
  /** Where the records came from, for the import log and messages (a URL without credentials). */
  readonly location: string;
}

export function recordsBundle(records: RosterRecords): Bundle {
  const names = new Map<string, () => AsyncIterable<Readonly<Record<string, string>>>>();
  for (const [name, rows] of records.files) names.set(`${name}.csv`.toLowerCase(), rows);
  const manifest = async function* () {
    for (const [propertyName, value] of records.manifest) yield { propertyName, value };
  };
  names.set('manifest.csv', manifest);
  const found = new Map([...records.files.keys(), 'manifest'].map((name) => [`${name}.csv`.toLowerCase(), name]));
  return {
    location: records.location,
    find: (name) => (found.has(name.toLowerCase()) ? `${found.get(name.toLowerCase())}.csv` : undefined),
    size: () => 0,
    open: async (name) => {
      const rows = names.get(name.toLowerCase());
      if (!rows) throw new Error(`${records.location}: no ${name}`);
      return Readable.from(csvOf(rows()), { objectMode: false });
    },
    close: async () => {},
  };
}

/** A header line of the first row's keys, then a line of each row's values in that order. */
async function* csvOf(rows: AsyncIterable<Readonly<Record<string, string>>>): AsyncGenerator<string> {
  let columns: string[] | undefined;
  for await (const row of rows) {
    if (!columns) {
      columns = Object.keys(row);
      yield csvLine(columns, '\n');
    }
    yield csvLine(
      columns.map((column) => row[column] ?? ''),
      '\n',
    );
  }
}
