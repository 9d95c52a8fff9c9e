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
  const known = new Set(stored);
  for (const rows of kept.values())
    for (const [sourcedId, fields] of rows) if ('sourcedId' in fields) known.add(sourcedId);
  const namesKnown = (fields: Readonly<Record<string, string>>) =>
    Object.entries(fields).every(
      ([column, value]) =>
        !/sourcedids?$/i.test(column) ||
        column === 'sourcedId' ||
        value.split(',').every((name) => name.trim() === '' || known.has(name.trim())),
    );
  // A list names only records given back: a teacher of two schools, imported with one (--school),
  // comes back with that school's org alone, so that the export imports back on its own.
  const knownOnly = (value: string) => {
    const names = value.split(',').map((name) => name.trim());
    return names.every((name) => name === '' || known.has(name))
      ? value
      : names.filter((name) => name !== '' && known.has(name)).join(',');
  };
  const added = new Map<string, number>();
  const done = new Set<string>();
  const open = (name: string, header: readonly string[], rows: KeptRows): CsvWriter => {
    done.add(name);
    const lower = new Map(header.map((column, index) => [column.toLowerCase(), index]));
    const extra: string[] = [];
    for (const fields of rows.values()) {
      for (const column of Object.keys(fields)) {
        if (!lower.has(column.toLowerCase())) {
          lower.set(column.toLowerCase(), header.length + extra.length);
          extra.push(column);
        }
      }
    }
    const width = header.length + extra.length;
    // Columns the binding written requires keep the export's value where the school's row has
    // none: a 1.2 user's role and orgs (from roles.csv) in a 1.1 export.
    const needed = new Set(required(name).map((column) => column.toLowerCase()));
    const file = inner.file(name, [...header, ...extra]);
    const seen = new Set<string>();
    const merged = (values: readonly unknown[], fields: Readonly<Record<string, string>> | undefined) => {
      const out: unknown[] = Array.from({ length: width }, (_, index) => values[index]);
      // A row the school gave comes back as it gave it: of the export's own values only the
      // service's metadata (contract id, names in both languages, a guardian's relation) are added;
      // what the import inferred (a homeroom, a grade, a term) is left out, to be inferred again.
      if (fields && 'sourcedId' in fields) {
        for (const [column, index] of lower) if (!ownMetadata(column) && !needed.has(column)) out[index] = '';
      }
      for (const [column, value] of Object.entries(fields ?? {})) {
        const index = lower.get(column.toLowerCase());
        if (index !== undefined) out[index] = /sourcedids$/i.test(column) ? knownOnly(value) : value;
      }
      return out;
    };
    return {
      row(values) {
        const sourcedId = String(values[0] ?? '');
        seen.add(sourcedId);
        return file.row(merged(values, rows.get(sourcedId)));
      },
      async end() {
        let count = 0;
        for (const [sourcedId, fields] of rows) {
          // A row kept in part (results.csv's: no sourcedId field) only completes an exported row.
          if (seen.has(sourcedId) || !('sourcedId' in fields) || !namesKnown(fields)) continue;
          await file.row(merged([], fields));
          count += 1;
        }
        added.set(name, count);
        await file.end();
      },
    };
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

function wholeRows(rows: KeptRows): boolean {
  return [...rows.values()].some((fields) => 'sourcedId' in fields);
}
