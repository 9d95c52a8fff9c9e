import type { PendingSection, PendingSections } from './class-files';
import type { ImportConnection } from '../store/roster/import-connection';
import { keptRowsNaming, keptRowsOf } from '../store/roster/kept-fields';
import type { FieldReader } from './fields';
import type { ImportContext } from './import-context';
import type { Entry } from './roster-book';

/**
 * A delta that takes pupils out of scheduled classes (their enrollments.csv rows `tobedeleted`,
 * or deleted with the pupil) changes what a bulk import of the school after it would infer, though
 * it lists neither the classes nor the other pupils: each such class is placed again from the
 * pupils it keeps (the store's enrolments, from the rows kept of earlier imports, and the delta's),
 * so a class left without pupils is taught to a section of its own, as bulk has it; its teachers'
 * assignments and line items follow it. A class an earlier import made one with another of its
 * subject in its section (stored as that one's other name) is placed again as a class of its own,
 * from its own pupils: a bulk import of the changed school may place the two apart. A pupil
 * without a homeroom left without scheduled classes loses the enrolment record the import inferred
 * for them (bulk infers none).
 */

const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));

/** A stored class placed again: the names its rows know it by and the section the store teaches it to. */
interface Replaced {
  readonly names: Set<string>;
  storedSection: number;
  readonly line: number;
}

/**
 * A teacher's enrolment of the store to be read again as if the delta listed it: it holds (or is
 * another name of) an assignment of a class that moved, and the assignment is worked out anew.
 */
export interface TeachingAgain {
  readonly sourcedId: string;
  readonly line: number;
  readonly teacher: Entry;
  /** The scheduled class (class_subjects) or homeroom (classes) the enrolment names, and the name it gives. */
  readonly klass: Entry;
  readonly className: string;
}

/** "a-e2" before "a-e10": the order an export writes rows it numbers, the best guess of their file order. */
const naturalOrder = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

export class PupilsTakenOut {
  private constructor(
    private readonly context: ImportContext,
    private readonly reader: FieldReader,
    private readonly classes: Map<Entry, Replaced>,
    /** The pupils taken out of a class, by sourcedId, with the line of the row that did it. */
    private readonly pupils: Map<string, number>,
    /** Kept rows of the rest: enrollments.csv of these classes and pupils, lineItems.csv of these classes. */
    private readonly kept: {
      enrolments: Map<string, Record<string, string>>;
      lineItems: Map<string, Record<string, string>>;
    },
    /** enrollments.csv rows the store holds that this delta deletes or lists anew. */
    private readonly restated: ReadonlySet<string>,
  ) {}

  /** Undefined when the delta takes no pupil out of a scheduled class of the store. */
  static async of(
    context: ImportContext,
    connection: ImportConnection,
    reader: FieldReader,
    listed: ReadonlySet<string>,
  ): Promise<PupilsTakenOut | undefined> {
    const { book } = context;
    const marked = book.markedDeleted('student_records');
    if (context.mode !== 'delta' || marked.size === 0) return undefined;
    const classes = new Map<Entry, Replaced>();
    const pupils = new Map<string, number>();
    // A class taught to a homeroom the delta deletes goes with it: nothing to place.
    const sectionsDeleted = new Set(book.deletions('classes').map((entry) => entry.id));
    for (const [sourcedId, row] of await keptRowsOf(connection, 'enrollments.csv', [...marked.keys()])) {
      const found = row.role === 'student' ? book.find('class_subjects', row.classSourcedId ?? '') : undefined;
      // Another name finds the store's record, which the delta may list anew: the class is the one it lists.
      const klass = found && (book.find('class_subjects', found.sourcedId) ?? found);
      if (!klass || sectionsDeleted.has(idOf(klass.row?.class_id))) continue;
      const line = marked.get(sourcedId) ?? 0;
      const replaced = classes.get(klass) ?? { names: new Set<string>(), storedSection: Number.NaN, line };
      replaced.names.add(row.classSourcedId).add(klass.sourcedId);
      classes.set(klass, replaced);
      pupils.set(row.userSourcedId ?? '', line);
    }
    if (classes.size === 0) return undefined;
    // The other names of each class, which placeAgain places as classes of their own.
    for (const [name, target] of book.aliasesOf('class_subjects'))
      if (book.find('class_subjects', name) === target)
        classes.get(book.find('class_subjects', target.sourcedId) ?? target)?.names.add(name);
    const names = [...classes.values()].flatMap((replaced) => [...replaced.names]);
    const enrolments = await keptRowsNaming(connection, 'enrollments.csv', 'classSourcedId', names);
    for (const [sourcedId, row] of await keptRowsNaming(connection, 'enrollments.csv', 'userSourcedId', [
      ...pupils.keys(),
    ]))
      enrolments.set(sourcedId, row);
    const lineItems = await keptRowsNaming(connection, 'lineItems.csv', 'classSourcedId', names);
    const restated = new Set([...marked.keys(), ...listed]);
    return new PupilsTakenOut(context, reader, classes, pupils, { enrolments, lineItems }, restated);
  }

  /** The store's enrolments this delta leaves as they are, of a role, by sourcedId. */
  private staying(role: string): Array<[string, Record<string, string>]> {
    return [...this.kept.enrolments].filter(([sourcedId, row]) => row.role === role && !this.restated.has(sourcedId));
  }

  /**
   * Sets each class to be placed again, among its pupils the ones the store keeps in it; a class
   * the delta lists is placed from its pupils, not kept where the store had it. Each other name of
   * it becomes a class of its own (see splitOff). `pupilsByName`: the delta's pupils of scheduled
   * classes by the class name their enrolment gives.
   */
  async placeAgain(
    connection: ImportConnection,
    pending: PendingSections,
    pupilsOf: Map<Entry, Entry[]>,
    pupilsByName: ReadonlyMap<string, readonly Entry[]>,
  ): Promise<void> {
    const names = [...this.classes.values()].flatMap((replaced) => [...replaced.names]);
    const rows = await keptRowsOf(connection, 'classes.csv', names);
    for (const [klass, replaced] of [...this.classes]) {
      const listed = pending.get(klass);
      const info = listed ? { ...listed, storedSection: undefined } : this.pendingOf(klass, rows.get(klass.sourcedId));
      if (!info) {
        this.classes.delete(klass);
        continue;
      }
      replaced.storedSection = listed ? (listed.storedSection ?? Number.NaN) : idOf(klass.row?.class_id);
      pending.set(klass, { ...info, reader: listed ? undefined : this.reader, line: listed?.line ?? replaced.line });
      for (const name of replaced.names) {
        if (name === klass.sourcedId) continue;
        const split = this.splitOff(name, klass, replaced, rows.get(name));
        if (!split) continue;
        replaced.names.delete(name);
        pending.set(split.entry, split.info);
        const listedPupils = pupilsByName.get(name) ?? [];
        pupilsOf.set(split.entry, [...listedPupils, ...this.keptPupils(name)]);
        pupilsOf.set(klass, without(pupilsOf.get(klass) ?? [], listedPupils));
      }
      pupilsOf.set(klass, [...(pupilsOf.get(klass) ?? []), ...this.keptPupils(...replaced.names)]);
    }
  }

  /** The pupils the store keeps in a class under these names, the delta leaving their enrolment as it is. */
  private keptPupils(...names: string[]): Entry[] {
    return this.staying('student').flatMap(([, row]) => {
      const pupil = names.includes(row.classSourcedId)
        ? this.context.book.find('students', row.userSourcedId)
        : undefined;
      return pupil ? [pupil] : [];
    });
  }

  /**
   * Another name of a stored class, as a class of its own from its kept classes.csv row, under the
   * section the record was taught to: placeClasses places it from its own pupils, and makes it
   * the other name of a class of its subject again if it lands in that class's section. It asks for
   * no id (an export wrote the record's as its contractId): it is given its own.
   */
  private splitOff(
    name: string,
    klass: Entry,
    replaced: Replaced,
    row: Record<string, string> | undefined,
  ): { entry: Entry; info: PendingSection } | undefined {
    const { book } = this.context;
    const info = this.pendingOf(klass, row);
    // A name the delta lists is a class of its own already.
    if (!info || book.find('class_subjects', name)?.sourcedId !== klass.sourcedId) return undefined;
    this.reader.begin({ line: replaced.line, values: [] });
    book.unalias('class_subjects', name);
    const entry = book.accept('class_subjects', this.reader, {
      sourcedId: name,
      row: { class_id: undefined, subject_id: klass.row?.subject_id },
      modifiedAt: undefined,
    });
    if (!entry) {
      book.alias(name, klass);
      return undefined;
    }
    this.classes.set(entry, { names: new Set([name]), storedSection: replaced.storedSection, line: replaced.line });
    return { entry, info: { ...info, reader: this.reader, line: replaced.line, anotherName: true } };
  }

  /** A stored class's row as classes.csv gave it, read as the class reader reads it. */
  private pendingOf(klass: Entry, row: Record<string, string> | undefined): PendingSection | undefined {
    if (!row) return undefined;
    const { book } = this.context;
    const first = (value: string | undefined) => (value ?? '').split(',')[0]?.trim() ?? '';
    const term = first(row.termSourcedIds);
    const session = book.find('academic_years', term) ?? book.find('terms', term);
    const yearOf = session?.table === 'terms' ? session.row?.academic_year_id : session;
    const year =
      typeof yearOf === 'object' && yearOf !== null
        ? (yearOf as Entry)
        : book.all('academic_years').find((entry) => entry.id === Number(yearOf));
    return {
      line: 0,
      homeroom: row['metadata.homeroomSourcedId'] ?? '',
      code: row.classCode ?? '',
      grade: first(row.grades),
      title: row.title ?? klass.sourcedId,
      year,
    };
  }

  /** Pupils without a homeroom whom the delta leaves in no scheduled class lose their inferred records. */
  dropEmptyRecords(listedPupils: ReadonlyMap<Entry, unknown>): void {
    const { book } = this.context;
    const staying = new Set(
      this.staying('student')
        .filter(([, row]) => book.find('class_subjects', row.classSourcedId))
        .map(([, row]) => row.userSourcedId),
    );
    for (const [sourcedId, line] of this.pupils) {
      const pupil = book.find('students', sourcedId);
      if (!pupil || staying.has(sourcedId) || listedPupils.has(pupil)) continue;
      const records = book.all('student_records').filter((record) => idOf(record.row?.student_id) === pupil.id);
      // A record a row brought (a homeroom's enrolment) is the school's word, not an inference.
      if (records.some((record) => !record.sourcedId.startsWith('record:'))) continue;
      this.reader.begin({ line, values: [] });
      for (const record of records) book.delete('student_records', record.sourcedId, this.reader);
    }
  }

  /**
   * Once the classes are placed: each moved class and its line items the delta does not list are
   * changed to its new section (a class now another's other name is deleted, its line items with
   * the one it names). Returns the teachers' enrolments of the store to read again: every one that
   * holds, or is another name of, an assignment of a moved class, so that the assignments are
   * worked out as a bulk import of the changed school does (two classes placed apart are two).
   */
  async moveWhatHangsOff(connection: ImportConnection): Promise<TeachingAgain[]> {
    const { book, patches } = this.context;
    const moved = new Set<string>();
    for (const [klass, replaced] of this.classes) {
      const placed = book.find('class_subjects', klass.sourcedId);
      const section = placed?.row ? idOf(placed.row.class_id) : undefined;
      if (section === undefined || Number.isNaN(section) || section === replaced.storedSection) continue;
      this.reader.begin({ line: replaced.line, values: [] });
      if (placed === klass) book.rewrite(klass, this.reader);
      for (const name of replaced.names) moved.add(name);
      for (const [sourcedId, row] of this.kept.lineItems) {
        const item = replaced.names.has(row.classSourcedId) ? book.find('assessments', sourcedId) : undefined;
        if (item && item.line === 0) patches.push({ table: item.table, id: item.id, columns: { class_id: section } });
      }
    }
    return this.teachingAgain(connection, moved);
  }

  /** The enrolments holding the assignments that teachers of the moved class names hold, in their likely file order. */
  private async teachingAgain(connection: ImportConnection, moved: ReadonlySet<string>): Promise<TeachingAgain[]> {
    const { book } = this.context;
    const table = 'teacher_assignments';
    const records = new Set<number>();
    for (const [sourcedId, row] of this.staying('teacher')) {
      const record = moved.has(row.classSourcedId) ? book.find(table, sourcedId) : undefined;
      if (record && record.line === 0) records.add(record.id);
    }
    if (records.size === 0) return [];
    const own = book
      .all(table)
      .filter((entry) => entry.line === 0 && records.has(entry.id))
      .map((entry) => entry.sourcedId);
    const others = book
      .aliasesOf(table)
      .filter(([sourcedId, target]) => records.has(target.id) && book.find(table, sourcedId) === target)
      .map(([sourcedId]) => sourcedId);
    // The records' own enrolments first (a bulk import met each first), then their other names.
    const again = [...own.sort(naturalOrder), ...others.sort(naturalOrder)].filter(
      (sourcedId) => !this.restated.has(sourcedId),
    );
    const rows = await keptRowsOf(connection, 'enrollments.csv', again);
    return again.flatMap((sourcedId) => {
      const row = rows.get(sourcedId);
      const teacher = row && book.find('teachers', row.userSourcedId);
      const klass =
        row && (book.find('class_subjects', row.classSourcedId) ?? book.find('classes', row.classSourcedId));
      const className = row?.classSourcedId ?? '';
      return teacher && klass ? [{ sourcedId, line: this.line(className), teacher, klass, className }] : [];
    });
  }

  /** The line of the row that placed a class again, for a row read again because of it. */
  private line(name: string): number {
    for (const replaced of this.classes.values()) if (replaced.names.has(name)) return replaced.line;
    return [...this.classes.values()][0]?.line ?? 0;
  }
}

/** `list` less one of each of `taken`. */
function without(list: readonly Entry[], taken: readonly Entry[]): Entry[] {
  const rest = [...list];
  for (const entry of taken) {
    const at = rest.indexOf(entry);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}
