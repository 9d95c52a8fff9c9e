import type { BundleWriter, CsvWriter } from './bundle-writer';

/**
 * An export's writer that gives back the fields an import kept (kept-fields.ts): each exported row
 * takes, by its sourcedId (the first column), the kept fields as the school wrote them (a title,
 * a term list, a timestamp the store holds in another form), the columns the export does not write
 * itself appended to the header; a field the school left empty keeps the export's value (the
 * contract id, the English name); the kept rows the store does
 * not hold (the district org, grading periods, enrolments in scheduled classes ...) follow the
 * exported rows; a file the export has no rows for is written from the kept rows alone.
 */
export interface GivingBackWriter extends BundleWriter {
  /** Writes the kept files the export never opened (of `files`), and adds the rows given back to `counts`. */
  finish(counts: Record<string, number>, files: readonly string[]): Promise<void>;
}

/** The service's own columns an export adds to a row the school gave (lower-cased header names). */
function ownMetadata(column: string): boolean {
  return column.startsWith('metadata.') && column !== 'metadata.homeroomsourcedid';
}

type KeptRows = ReadonlyMap<string, Readonly<Record<string, string>>>;

/**
 * `required(file)`: the columns the bundle's version requires of that file (see below).
 * `stored`: the sourcedIds the store's records have. A kept row is given back on its own only
 * while every record it names (its *SourcedId/*SourcedIds columns) is stored or kept: a delta that
 * deletes a class takes its enrolments from the store, and so from the export.
 */
export function givingBack(
  inner: BundleWriter,
  kept: ReadonlyMap<string, KeptRows>,
  stored: ReadonlySet<string>,
  required: (file: string) => readonly string[] = () => [],
): GivingBackWriter {
  const known = knownSourcedIds(kept, stored);
  const added = new Map<string, number>();
  const done = new Set<string>();
  const open = (name: string, header: readonly string[], rows: KeptRows): CsvWriter => {
    done.add(name);
    // Columns the binding written requires keep the export's value where the school's row has
    // none: a 1.2 user's role and orgs (from roles.csv) in a 1.1 export.
    const needed = new Set(required(name).map((column) => column.toLowerCase()));
    return keptFileWriter({ inner, name, header, rows, needed, known }, (count) => added.set(name, count));
  };
  const fromKeptAlone = async (name: string, rows: KeptRows) => {
    const file = open(name, [], rows);
    await file.end();
  };
  return {
    file(name, header) {
      const rows = kept.get(name);
      return rows ? open(name, header, rows) : inner.file(name, header);
    },
    async omit(name) {
      const rows = kept.get(name);
      if (rows && wholeRows(rows)) await fromKeptAlone(name, rows);
      else await inner.omit(name);
    },
    close: () => inner.close(),
    async finish(counts, files) {
      for (const name of files) {
        const rows = kept.get(name);
        if (!done.has(name) && rows && wholeRows(rows)) await fromKeptAlone(name, rows);
      }
      for (const [name, count] of added) counts[name] = (counts[name] ?? 0) + count;
    },
  };
}

/** The sourcedIds a row given back may name: the store's records', and those of the rows kept whole. */
function knownSourcedIds(kept: ReadonlyMap<string, KeptRows>, stored: ReadonlySet<string>): Set<string> {
  const known = new Set(stored);
  for (const rows of kept.values())
    for (const [sourcedId, fields] of rows) if ('sourcedId' in fields) known.add(sourcedId);
  return known;
}

/** Whether a column names records (a reference or a list of them), by its name; worked out once a name. */
const naming = new Map<string, boolean>();
function namesRecords(column: string): boolean {
  let names = naming.get(column);
  if (names === undefined) {
    names = /sourcedids?$/i.test(column) && column !== 'sourcedId';
    // Column names come from the bundles' headers: few, but bounded all the same.
    if (naming.size < 10_000) naming.set(column, names);
  }
  return names;
}

/** The sourcedIds a kept row's lists and references name (what giving back checks). */
export function namesIn(fields: Readonly<Record<string, string>>): string[] {
  const names: string[] = [];
  for (const column in fields)
    if (namesRecords(column)) for (const name of fields[column].split(',')) names.push(name.trim());
  return names;
}

/** Whether every record a kept row names is known, so that the row may come back on its own. */
export function namesKnown(known: ReadonlySet<string>, fields: Readonly<Record<string, string>>): boolean {
  return Object.entries(fields).every(
    ([column, value]) =>
      !/sourcedids?$/i.test(column) ||
      column === 'sourcedId' ||
      value.split(',').every((name) => name.trim() === '' || known.has(name.trim())),
  );
}

/**
 * A list names only records given back: a teacher of two schools, imported with one (--school),
 * comes back with that school's org alone, so that the export imports back on its own.
 */
function knownOnly(known: ReadonlySet<string>, value: string): string {
  const names = value.split(',').map((name) => name.trim());
  return names.every((name) => name === '' || known.has(name))
    ? value
    : names.filter((name) => name !== '' && known.has(name)).join(',');
}

/** What a file's exported rows are merged with their kept fields by. */
export interface KeptMerge {
  /** The columns (lower-cased) the export's value is kept in even when the school's row has none. */
  readonly needed: ReadonlySet<string>;
  /** The sourcedIds a kept list may name (all of those a kept row names, at least). */
  readonly known: ReadonlySet<string>;
}

/** A file of the export that has kept rows, and what its rows are merged with. */
interface KeptFile extends KeptMerge {
  readonly inner: BundleWriter;
  readonly name: string;
  /** The export's own header. */
  readonly header: readonly string[];
  readonly rows: KeptRows;
}

/** Where a row's fields go: each column (lower-cased) by its index, and the header's width. */
export interface MergedColumns {
  readonly lower: ReadonlyMap<string, number>;
  readonly width: number;
}

/** The merged file's columns: the export's header, then the kept columns it lacks. */
export function mergedColumns(header: readonly string[], extra: readonly string[]): MergedColumns {
  const lower = new Map([...header, ...extra].map((column, index) => [column.toLowerCase(), index]));
  return { lower, width: header.length + extra.length };
}

/**
 * The writer of a file with kept rows: the kept columns the export does not write appended to its
 * header, each exported row merged with its kept fields, and at its end the kept rows the export
 * did not write; `given(count)` is told how many of those.
 */
function keptFileWriter(target: KeptFile, given: (count: number) => void): CsvWriter {
  const { inner, name, header, rows } = target;
  const extra = extraColumns(header, rows);
  const columns = mergedColumns(header, extra);
  const file = inner.file(name, [...header, ...extra]);
  const seen = new Set<string>();
  return {
    row(values) {
      const sourcedId = String(values[0] ?? '');
      seen.add(sourcedId);
      return file.row(mergedRow(target, columns, values, rows.get(sourcedId)));
    },
    async end() {
      let count = 0;
      for (const [sourcedId, fields] of rows) {
        // A row kept in part (results.csv's: no sourcedId field) only completes an exported row.
        if (seen.has(sourcedId) || !('sourcedId' in fields) || !namesKnown(target.known, fields)) continue;
        await file.row(mergedRow(target, columns, [], fields));
        count += 1;
      }
      given(count);
      await file.end();
    },
  };
}

/** The kept rows' columns the header does not have (compared lower-cased), in the order first met. */
export function extraColumns(header: readonly string[], rows: KeptRows): string[] {
  const present = new Set(header.map((column) => column.toLowerCase()));
  const extra: string[] = [];
  for (const fields of rows.values()) {
    for (const column of Object.keys(fields)) {
      if (!present.has(column.toLowerCase())) {
        present.add(column.toLowerCase());
        extra.push(column);
      }
    }
  }
  return extra;
}

/** An exported row (`values`, in header order) with the fields kept for it, or a kept row alone. */
export function mergedRow(
  target: KeptMerge,
  columns: MergedColumns,
  values: readonly unknown[],
  fields: Readonly<Record<string, string>> | undefined,
): unknown[] {
  const out: unknown[] = Array.from({ length: columns.width }, (_, index) => values[index]);
  // A row the school gave comes back as it gave it: of the export's own values only the
  // service's metadata (contract id, names in both languages, a guardian's relation) are added;
  // what the import inferred (a homeroom, a grade, a term) is left out, to be inferred again.
  if (fields && 'sourcedId' in fields) {
    for (const [column, index] of columns.lower)
      if (!ownMetadata(column) && !target.needed.has(column)) out[index] = '';
  }
  for (const [column, value] of Object.entries(fields ?? {})) {
    const index = columns.lower.get(column.toLowerCase());
    if (index !== undefined) out[index] = /sourcedids$/i.test(column) ? knownOnly(target.known, value) : value;
  }
  return out;
}

function wholeRows(rows: KeptRows): boolean {
  return [...rows.values()].some((fields) => 'sourcedId' in fields);
}
