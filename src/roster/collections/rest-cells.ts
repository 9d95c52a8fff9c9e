/**
 * How a OneRoster REST record (JSON, 1.1 or 1.2) becomes a row of the matching CSV file, for the
 * SIS sync's reader: references (`{sourcedId, href, type}`) become their sourcedId, lists of them a
 * comma-separated list (`orgs` -> `orgSourcedIds`), arrays of strings a list, `metadata` one
 * `metadata.NAME` column a member, dates the CSV binding's YYYY-MM-DD. Values the binding's CSV has
 * no column for are left out; a password is never kept. Each collection module says which member
 * fills which of its columns.
 */
export type Row = Record<string, string>;
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export const ref = (value: unknown): string => (isObject(value) ? text(value.sourcedId) : '');
export const refs = (value: unknown): string => (Array.isArray(value) ? value.map(ref).filter(Boolean).join(',') : '');
const list = (value: unknown): string => (Array.isArray(value) ? value.map(text).join(',') : text(value));

/** A date or date-time of the REST binding as the CSV binding's date. */
export function date(value: unknown): string {
  const raw = text(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(raw) ? raw.slice(0, 10) : raw;
}

/** sourcedId, status, dateLastModified and the metadata.* columns of any record. */
export function restCommon(record: Json): Row {
  const row: Row = {
    sourcedId: text(record.sourcedId),
    status: text(record.status),
    dateLastModified: text(record.dateLastModified),
  };
  if (isObject(record.metadata)) {
    for (const [name, value] of Object.entries(record.metadata)) row[`metadata.${name}`] = text(value);
  }
  return row;
}

/** How a member of a REST record becomes a CSV cell. */
const CELL = { text, ref, refs, list, date } as const;

/**
 * A column of a CSV file from a member of the REST record: its name in the record (or names, the
 * first non-empty one counting), how it is converted, and whether the column is written only when
 * the record has the member (1.2 additions an import reads when present).
 */
export type RestColumn<Column extends string> = readonly [
  column: Column,
  member: string | readonly string[],
  cell: keyof typeof CELL,
  when?: 'present',
];

/** The row of a record whose members fill its file's columns one to one, filled column by column. */
export function columnsRow<Column extends string>(record: Json, columns: readonly RestColumn<Column>[]): Row {
  const row = restCommon(record);
  for (const [column, member, cell, when] of columns) {
    const members = typeof member === 'string' ? [member] : member;
    if (when === 'present' && members.every((name) => record[name] === undefined)) continue;
    let value = '';
    for (const name of members) {
      value = CELL[cell](record[name]);
      if (value !== '') break;
    }
    row[column] = value;
  }
  return row;
}

/** A REST mapping given as its columns: the record's row. */
export const byColumns =
  <Column extends string>(columns: readonly RestColumn<Column>[]) =>
  (record: Json): Row =>
    columnsRow(record, columns);
