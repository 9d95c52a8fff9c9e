import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ImportConnection } from '../store/roster/import-connection';
import { readKeptFields } from '../store/roster/kept-fields';
import type { BundleWriter } from './bundle-writer';
import { cellsOf, type ExportPart, type ExportSource } from './collections/collection';
import { ONEROSTER_COLLECTIONS } from './collections/registry';
import { givingBack, namesIn } from './giving-back';
import { knownNames } from './known-names';
import { withoutNeverKept } from './kept-fields';
import { requiredColumnsOf } from './oneroster-columns';
import { emit } from './school-snapshot';
import { collectionHeader, collectionRows, openSchoolRows } from './school-rows';

/** The kept rows of each file, by sourcedId, as an export gives them back. */
export type KeptFiles = Map<string, Map<string, Record<string, string>>>;

/**
 * The kept fields an export of `version` gives back (of every file, or of `file` alone). 1.1 has
 * no roles.csv, and no result without a score (a 1.2 result not submitted, or with a text score no
 * scale maps): those are not given back.
 */
export async function keptToGiveBack(
  connection: ImportConnection,
  version: '1.1' | '1.2',
  file?: string,
): Promise<KeptFiles> {
  const kept = withoutNeverKept(await readKeptFields(connection, file));
  if (version === '1.1') {
    kept.delete('roles.csv');
    for (const [sourcedId, fields] of kept.get('results.csv') ?? []) {
      if (!fields.score) kept.get('results.csv')?.delete(sourcedId);
    }
  }
  return kept;
}

/** Where one file's rows go, as the export would write them: its header first, then each row. */
export interface RowSink {
  header(columns: readonly unknown[]): void;
  /** Resolves to false to stop reading (the rest of the file is not read); the next row waits for it. */
  row(values: readonly unknown[]): boolean | Promise<boolean>;
}

type Exported = { readonly name: string; readonly export: ExportPart<string> };
const COLLECTIONS: readonly Exported[] = ONEROSTER_COLLECTIONS;

/** Thrown through the export's loop when a sink has what it wants. */
const ENOUGH = Symbol('enough');

/**
 * One OneRoster file at a time, with exactly the rows `export` writes for it (its row source,
 * then the kept fields given back and the kept rows the store does not hold, a 1.2 result without
 * a score and scoreScales.csv's rows included), handed to a sink
 * instead of a file: a reader of a few collections (the REST provider) reads those alone, row by
 * row, and may read one twice. The source and the kept fields are read once, when opened.
 */
export interface GivenBackRows {
  /** Hands `file`'s rows to `sink`; a file the export would not write calls nothing. */
  scan(file: string, sink: RowSink): Promise<void>;
}

/** Kept rows looked at between two turns of the thread: a large school's enrolments are 200,000 of them. */
const ROWS_A_TURN = 5000;

/** Every sourcedId the kept rows name, each once, the thread given back every ROWS_A_TURN rows. */
async function namesOf(rows: ReadonlyMap<string, Readonly<Record<string, string>>> | undefined): Promise<Set<string>> {
  const names = new Set<string>();
  let seen = 0;
  for (const fields of rows?.values() ?? []) {
    for (const name of namesIn(fields)) names.add(name);
    seen += 1;
    if (seen % ROWS_A_TURN === 0) await nextTurn();
  }
  return names;
}

/** What one file's rows are made from: its module's tables, and its kept fields with the names they hold known. */
interface FileSource {
  readonly source: ExportSource;
  readonly kept: KeptFiles;
  readonly known: ReadonlySet<string>;
}

/**
 * Reads what `file`'s rows need and no more: the tables its module declares, the fields kept of
 * that file alone, and which of the records those fields name the school knows, looked up one by
 * one (knownNames) rather than known by reading every table and every kept field, which costs
 * seconds in a large school whatever the file. The same rows as an export's, which knows every
 * record: a name is known to both or to neither.
 */
async function fileSource(connection: ImportConnection, file: string): Promise<FileSource> {
  const collection = COLLECTIONS.find((each) => each.name === file);
  const source = await openSchoolRows(connection, collection?.export.reads.whole ?? []);
  // The kept rows of 1.2 (its results without a score among them): a 1.1 reader leaves those out itself.
  const kept = await keptToGiveBack(connection, '1.2', `${file}.csv`);
  const known = await knownNames(connection, await namesOf(kept.get(`${file}.csv`)), source.school.storedSourcedIds());
  return { source, kept, known };
}

export async function openGivenBackRows(connection: ImportConnection): Promise<GivenBackRows> {
  // A file scanned twice by one reading (a count, then a page) is read once.
  const sources = new Map<string, Promise<FileSource>>();
  return {
    async scan(file, sink) {
      const name = `${file}.csv`;
      const read = sources.get(file) ?? fileSource(connection, file);
      sources.set(file, read);
      const { source, kept, known } = await read;
      const into: BundleWriter = {
        file(_name, header) {
          sink.header(header);
          return {
            row: async (values) => {
              if (!(await sink.row(values))) throw ENOUGH;
            },
            end: async () => {},
          };
        },
        omit: async () => {},
        close: async () => {},
      };
      const writer = givingBack(into, kept, known, (written) => requiredColumnsOf(written, '1.1'));
      const collection = COLLECTIONS.find((each) => each.name === file);
      const counts: Record<string, number> = {};
      try {
        if (collection) {
          const part = collection.export;
          const header = await collectionHeader(source, part);
          const rows = collectionRows(source, part);
          await emit(writer, counts, name, header, rows, (record) => cellsOf(header, record));
        }
        await writer.finish(counts, [name]);
      } catch (error) {
        if (error !== ENOUGH) throw error;
      }
    },
  };
}
