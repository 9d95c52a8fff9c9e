import type { SchoolTableName } from '../store/roster/school-tables';
import type { FieldReader } from './fields';

/**
 * The school as the bundle describes it, table by table: each record under its sourcedId, with
 * the file and line it came from, its row (the store's columns) and the integer id it is given.
 * References between files resolve here, so a row that names a record the bundle does not hold
 * (or holds only as an invalid row) is reported where it is. In delta mode the book starts with
 * the records the store already has, so a delta row may name them.
 */
export type ImportMode = 'bulk' | 'delta';

/** The tables a user row fills: a row naming a user may find it invalid (or deleted) under another role. */
export const USER_TABLES: readonly SchoolTableName[] = ['students', 'teachers', 'guardians'];

/** Why no record has a sourcedId, when the bundle says: a row of it that is invalid, or the rest of the message. */
export interface MissingCause {
  /** `file:line` of the invalid row with that sourcedId. */
  readonly invalidAt?: string;
  /** What follows "names no ... in the bundle": '' when the bundle says nothing more. */
  readonly detail: string;
}

export interface Entry {
  readonly table: SchoolTableName;
  readonly sourcedId: string;
  /** 0 until ids are assigned. */
  id: number;
  readonly file: string;
  /** 0 for a record already in the store. */
  readonly line: number;
  /** The store's columns, but the id; undefined for a record of the store not loaded whole. */
  row: Record<string, unknown> | undefined;
  readonly modifiedAt: string | undefined;
  /** An id the row asks for: its contractId, or its identifier under --ids from-identifier. */
  readonly claim?: { readonly id: number; readonly column: string; readonly pinned: boolean };
}

/** The ids the store has handed out already, per table. */
export interface Ledger {
  idOf(table: SchoolTableName, sourcedId: string): { id: number; modifiedAt: string | null } | undefined;
  /** The highest id the table or its ledger has ever held, so that no id is handed out twice. */
  highestId(table: SchoolTableName): number;
}

export class RosterBook {
  private readonly tables = new Map<SchoolTableName, Map<string, Entry>>();
  private readonly invalid = new Map<SchoolTableName, Map<string, string>>();
  private readonly deleted = new Map<SchoolTableName, Entry[]>();
  private readonly aliases = new Map<SchoolTableName, Map<string, Entry>>();
  /** Tables whose file cannot be read, with where it broke and the rows left out because of it. */
  private readonly broken = new Map<SchoolTableName, { file: string; where: string; skipped: number }>();
  private readonly quietlyInvalid = new Map<SchoolTableName, Map<string, { where: string; skipped: number }>>();
  /** Rows with status tobedeleted (`file:line`), so that a row naming one says why it finds nothing. */
  private readonly toBeDeleted = new Map<SchoolTableName, Map<string, string>>();
  /** Tables whose file the manifest leaves out, with what the manifest says of it. */
  private readonly notInBundle = new Map<SchoolTableName, string>();
  /**
   * Delta rows no newer than the store's copy, so far: such a row changes nothing, its kept fields
   * (the ledger) included, and the reader compares this count around each row to know it.
   */
  unchanged = 0;
  /**
   * A delta of one school of several (--school): a record neither the delta nor the store holds is
   * another school's (the store holds this school alone), and a row naming it is left out as theirs.
   */
  unknownIsOtherSchool: { where: string; skipped: number } | undefined;

  constructor(
    readonly mode: ImportMode,
    private readonly ledger: Ledger,
  ) {}

  private of(table: SchoolTableName): Map<string, Entry> {
    let entries = this.tables.get(table);
    if (!entries) {
      entries = new Map();
      this.tables.set(table, entries);
    }
    return entries;
  }

  /** A record of the store, known to a delta import so rows may refer to it. */
  preload(table: SchoolTableName, sourcedId: string, id: number, row?: Record<string, unknown>): void {
    this.of(table).set(sourcedId, { table, sourcedId, id, file: '(store)', line: 0, row, modifiedAt: undefined });
  }

  /**
   * Takes a valid row. A sourcedId the bundle already gave is a duplicate; in delta mode a row no
   * newer than the store's copy changes nothing. Returns the entry, or undefined when it is not taken.
   */
  accept(
    table: SchoolTableName,
    reader: FieldReader,
    entry: Omit<Entry, 'table' | 'id' | 'file' | 'line'>,
    sourcedIdColumn = 'sourcedId',
  ): Entry | undefined {
    const entries = this.of(table);
    const earlier = entries.get(entry.sourcedId);
    if (earlier && earlier.line > 0 && earlier.file === reader.file) {
      reader.fail(
        sourcedIdColumn,
        'duplicate-sourcedId',
        `sourcedId "${entry.sourcedId}" is already on line ${earlier.line} of ${earlier.file}`,
      );
      this.markInvalid(table, entry.sourcedId, reader);
      return undefined;
    }
    if (this.mode === 'delta' && entry.modifiedAt !== undefined) {
      const stored = this.ledger.idOf(table, entry.sourcedId)?.modifiedAt;
      if (stored && stored >= entry.modifiedAt) {
        this.unchanged += 1;
        return undefined;
      }
    }
    const accepted: Entry = { ...entry, table, id: 0, file: reader.file, line: reader.line };
    entries.set(entry.sourcedId, accepted);
    return accepted;
  }

  /** A row with status=tobedeleted (or a record found to be another's): in delta mode its record leaves the store. */
  delete(table: SchoolTableName, sourcedId: string, reader: { readonly file: string; readonly line: number }): void {
    const marked = this.toBeDeleted.get(table) ?? new Map<string, string>();
    if (!marked.has(sourcedId)) marked.set(sourcedId, `${reader.file}:${reader.line}`);
    this.toBeDeleted.set(table, marked);
    if (this.mode !== 'delta') return;
    const known = this.ledger.idOf(table, sourcedId);
    this.of(table).delete(sourcedId);
    this.unalias(table, sourcedId);
    if (known) {
      const list = this.deleted.get(table) ?? [];
      list.push({
        table,
        sourcedId,
        id: known.id,
        file: reader.file,
        line: reader.line,
        row: undefined,
        modifiedAt: undefined,
      });
      this.deleted.set(table, list);
    }
  }

  /** The id the store holds a record under, whether or not this import lists it again. */
  storedId(table: SchoolTableName, sourcedId: string): number | undefined {
    return this.ledger.idOf(table, sourcedId)?.id;
  }

  /** The sourcedIds of the table's rows with status tobedeleted, each with the line it is on. */
  markedDeleted(table: SchoolTableName): Map<string, number> {
    const marked = [...(this.toBeDeleted.get(table) ?? [])];
    return new Map(marked.map(([sourcedId, where]) => [sourcedId, Number(where.slice(where.lastIndexOf(':') + 1))]));
  }

  /**
   * A record of the store that a delta does not list but changes whole (a scheduled class placed
   * again when its pupils leave): from now on it is written with the delta, at the row that caused
   * it, under its id and its modification time. It stays the same object, so every row that found
   * it already finds it changed.
   */
  rewrite(entry: Entry, reader: FieldReader): void {
    if (entry.line > 0 || this.find(entry.table, entry.sourcedId) !== entry) return;
    const rewritten = entry as { -readonly [Key in keyof Entry]: Entry[Key] };
    rewritten.file = reader.file;
    rewritten.line = reader.line;
    rewritten.modifiedAt = this.ledger.idOf(entry.table, entry.sourcedId)?.modifiedAt ?? undefined;
  }

  markInvalid(
    table: SchoolTableName,
    sourcedId: string,
    where: { file: string; line: number; quietlyInvalid?: object | undefined },
  ): void {
    if (sourcedId === '') return;
    // A row left out only for naming a record of an unreadable file passes that on, unlisted, to rows naming it.
    const cause = where.quietlyInvalid as { where: string; skipped: number } | undefined;
    if (cause) {
      let quiet = this.quietlyInvalid.get(table);
      if (!quiet) {
        quiet = new Map();
        this.quietlyInvalid.set(table, quiet);
      }
      quiet.set(sourcedId, cause);
      return;
    }
    let entries = this.invalid.get(table);
    if (!entries) {
      entries = new Map();
      this.invalid.set(table, entries);
    }
    if (!entries.has(sourcedId)) entries.set(sourcedId, `${where.file}:${where.line}`);
  }

  /** A file that cannot be read (`file:line`), and the tables it fills. */
  breakFile(file: string, where: string, tables: readonly SchoolTableName[]): void {
    const broken = { file, where, skipped: 0 };
    for (const table of tables) this.broken.set(table, broken);
  }

  /** Leaves the row out unlisted, and true, when the table's file cannot be read (so what it lacks is no news). */
  leftOutFor(reader: FieldReader, table: SchoolTableName): boolean {
    const broken = this.broken.get(table);
    if (!broken) return false;
    broken.skipped += 1;
    reader.failQuietly(broken);
    return true;
  }

  /** Whether a row of this sourcedId was left out unlisted (another school's, or naming an unreadable file). */
  isLeftOut(table: SchoolTableName, sourcedId: string): boolean {
    return this.quietlyInvalid.get(table)?.has(sourcedId) ?? false;
  }

  isBroken(table: SchoolTableName): boolean {
    return this.broken.has(table);
  }

  /** For each unreadable file: where it broke, and how many rows were left out for naming its records. */
  brokenFiles(): Array<{ file: string; where: string; skipped: number }> {
    return [...new Set(this.broken.values())];
  }

  /** The record `sourcedId` names among `tables`, or undefined with the problem recorded at `column`. */
  resolve(
    reader: FieldReader,
    column: string,
    tables: readonly SchoolTableName[],
    sourcedId: string,
    what: string,
  ): Entry | undefined {
    for (const table of tables) {
      const found = this.find(table, sourcedId);
      if (found) return found;
    }
    const broken =
      tables.map((table) => this.broken.get(table)).find((found) => found !== undefined) ??
      tables.map((table) => this.quietlyInvalid.get(table)?.get(sourcedId)).find((found) => found !== undefined);
    if (broken) {
      broken.skipped += 1;
      return reader.failQuietly(broken);
    }
    for (const table of tables) {
      const where = this.invalid.get(table)?.get(sourcedId);
      if (where) {
        return reader.fail(column, 'depends-on-invalid', `${what} "${sourcedId}" is the invalid row at ${where}`);
      }
    }
    const cause = this.missingCause(tables, sourcedId);
    if (cause.invalidAt) {
      return reader.fail(column, 'depends-on-invalid', `user "${sourcedId}" is the invalid row at ${cause.invalidAt}`);
    }
    if (this.unknownIsOtherSchool) {
      // Counted once a row, however many of its references are unknown.
      if (reader.ok) this.unknownIsOtherSchool.skipped += 1;
      return reader.failQuietly(this.unknownIsOtherSchool);
    }
    return reader.fail(
      column,
      'unknown-reference',
      `${column} "${sourcedId}" names no ${what} in the bundle${cause.detail}`,
    );
  }

  /** The file the manifest leaves out (absent, or not declared) that would fill these tables, said as the cause. */
  fileNotInBundle(tables: readonly SchoolTableName[], cause: string): void {
    for (const table of tables) this.notInBundle.set(table, cause);
  }

  /**
   * Why no record of `tables` has this sourcedId, as far as the bundle tells: a user row of that
   * sourcedId that is invalid under another role, a row of it marked tobedeleted, or a file the
   * manifest leaves out.
   */
  missingCause(tables: readonly SchoolTableName[], sourcedId: string): MissingCause {
    const related = tables.some((table) => USER_TABLES.includes(table)) ? [...tables, ...USER_TABLES] : tables;
    const invalidAt = related.map((table) => this.invalid.get(table)?.get(sourcedId)).find(Boolean);
    if (invalidAt) return { invalidAt, detail: '' };
    const deletedAt = related.map((table) => this.toBeDeleted.get(table)?.get(sourcedId)).find(Boolean);
    if (deletedAt) {
      const fate = this.mode === 'delta' ? 'this delta deletes it' : 'not imported';
      return { detail: `: its row at ${deletedAt} has status tobedeleted (${fate})` };
    }
    const absent = tables.map((table) => this.notInBundle.get(table)).find(Boolean);
    return { detail: absent ? `: ${absent}` : '' };
  }

  /** Finds a record without reporting anything. */
  find(table: SchoolTableName, sourcedId: string): Entry | undefined {
    return this.tables.get(table)?.get(sourcedId) ?? this.aliases.get(table)?.get(sourcedId);
  }

  /**
   * Another sourcedId for a record: a grading period inside a term is that term, and a second
   * scheduled class of one subject in one class is the first.
   */
  alias(sourcedId: string, target: Entry): void {
    let entries = this.aliases.get(target.table);
    if (!entries) {
      entries = new Map();
      this.aliases.set(target.table, entries);
    }
    entries.set(sourcedId, target);
  }

  /** A sourcedId that no longer names the record it was another name for (a delta ends it). */
  unalias(table: SchoolTableName, sourcedId: string): void {
    this.aliases.get(table)?.delete(sourcedId);
  }

  /** The other sourcedIds of the table's records (see alias), each with the record it names. */
  aliasesOf(table: SchoolTableName): Array<[string, Entry]> {
    return [...(this.aliases.get(table) ?? [])];
  }

  /** The table's records from this bundle, in file order. */
  entries(table: SchoolTableName): Entry[] {
    return [...this.of(table).values()].filter((entry) => entry.line > 0);
  }

  /** Every record of the table the book knows, from the store as well. */
  all(table: SchoolTableName): Entry[] {
    return [...this.of(table).values()];
  }

  deletions(table: SchoolTableName): readonly Entry[] {
    return this.deleted.get(table) ?? [];
  }

  /** A deletion called off: the record stays, held by another name (see teacher-assignments.ts). */
  undelete(entry: Entry): void {
    this.deleted.set(
      entry.table,
      this.deletions(entry.table).filter((deletion) => deletion !== entry),
    );
  }

  /** Drops a record found bad after it was taken (an id clash), so rows after it see it as invalid. */
  reject(entry: Entry): void {
    this.of(entry.table).delete(entry.sourcedId);
    this.markInvalid(entry.table, entry.sourcedId, entry);
  }

  /**
   * Gives each new record of the table its id: the id it asks for (contractId, or identifier under
   * --ids from-identifier), else the id the ledger gave its sourcedId before, else the next id never
   * handed out. Two records asking for one id is a clash, reported at the later one with both rows named.
   */
  assignIds(table: SchoolTableName, readerFor: (entry: Entry) => FieldReader): void {
    const owners = new Map<number, Entry>();
    // Called again for records inferred later (class sections): the ids given before stay theirs.
    for (const entry of this.all(table)) if (entry.line === 0 || entry.id !== 0) owners.set(entry.id, entry);
    const clash = (entry: Entry, id: number, column: string): boolean => {
      const owner = owners.get(id);
      if (!owner || owner.sourcedId === entry.sourcedId) return false;
      const reader = readerFor(entry);
      const first = owner.line > 0 ? `${owner.file}:${owner.line}` : 'the store';
      reader.failAt(
        entry.line,
        column,
        'id-clash',
        `id ${id} is asked for by ${entry.file}:${entry.line} (sourcedId "${entry.sourcedId}") and is ` +
          `already ${first}'s (sourcedId "${owner.sourcedId}")`,
      );
      this.reject(entry);
      return true;
    };
    const fresh = this.entries(table).filter((entry) => entry.id === 0);
    const waiting: Entry[] = [];
    // Ids asked for explicitly, and ids the ledger gave before, are taken first; then identifiers.
    const take = (entry: Entry, id: number, column: string) => {
      if (clash(entry, id, column)) return;
      entry.id = id;
      owners.set(id, entry);
    };
    for (const entry of fresh) {
      const known = this.ledger.idOf(table, entry.sourcedId)?.id;
      if (entry.claim?.pinned) take(entry, entry.claim.id, entry.claim.column);
      else if (known !== undefined && !(this.mode === 'bulk' && entry.claim)) take(entry, known, 'sourcedId');
      else waiting.push(entry);
    }
    const rest: Entry[] = [];
    for (const entry of waiting) {
      if (entry.claim) take(entry, entry.claim.id, entry.claim.column);
      else rest.push(entry);
    }
    let next = this.ledger.highestId(table);
    for (const id of owners.keys()) next = Math.max(next, id);
    for (const entry of rest) {
      do next += 1;
      while (owners.has(next));
      entry.id = next;
      owners.set(next, entry);
    }
  }
}
