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
 * assignments and line items follow it. A pupil without a homeroom left without scheduled classes
 * loses the enrolment record the import inferred for them (bulk infers none).
 */

const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));

/** A stored class placed again: the names its rows know it by and the section the store teaches it to. */
interface Replaced {
  readonly names: Set<string>;
  storedSection: number;
  readonly line: number;
}

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
    for (const [sourcedId, row] of await keptRowsOf(connection, 'enrollments.csv', [...marked.keys()])) {
      const found = row.role === 'student' ? book.find('class_subjects', row.classSourcedId ?? '') : undefined;
      // Another name finds the store's record, which the delta may list anew: the class is the one it lists.
      const klass = found && (book.find('class_subjects', found.sourcedId) ?? found);
      if (!klass) continue;
      const line = marked.get(sourcedId) ?? 0;
      const replaced = classes.get(klass) ?? { names: new Set<string>(), storedSection: Number.NaN, line };
      replaced.names.add(row.classSourcedId).add(klass.sourcedId);
      classes.set(klass, replaced);
      pupils.set(row.userSourcedId ?? '', line);
    }
    if (classes.size === 0) return undefined;
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
   * the delta lists is placed from its pupils, not kept where the store had it.
   */
  async placeAgain(
    connection: ImportConnection,
    pending: PendingSections,
    pupilsOf: Map<Entry, Entry[]>,
  ): Promise<void> {
    const { book } = this.context;
    const rows = await keptRowsOf(
      connection,
      'classes.csv',
      [...this.classes.keys()].map((klass) => klass.sourcedId),
    );
    for (const [klass, replaced] of this.classes) {
      const listed = pending.get(klass);
      const info = listed ? { ...listed, storedSection: undefined } : this.pendingOf(klass, rows.get(klass.sourcedId));
      if (!info) {
        this.classes.delete(klass);
        continue;
      }
      replaced.storedSection = listed ? (listed.storedSection ?? Number.NaN) : idOf(klass.row?.class_id);
      pending.set(klass, { ...info, reader: listed ? undefined : this.reader, line: listed?.line ?? replaced.line });
      const pupils = pupilsOf.get(klass) ?? [];
      for (const [, row] of this.staying('student')) {
        const pupil = replaced.names.has(row.classSourcedId) ? book.find('students', row.userSourcedId) : undefined;
        if (pupil) pupils.push(pupil);
      }
      pupilsOf.set(klass, pupils);
    }
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
   * Once the classes are placed: each moved class, its teachers' assignments and its line items
   * the delta does not list are changed to its new section (a class now another's other name is
   * deleted, its line items and teachers with the one it names).
   */
  moveWhatHangsOff(): void {
    const { book, patches } = this.context;
    for (const [klass, replaced] of this.classes) {
      const placed = book.find('class_subjects', klass.sourcedId);
      const section = placed?.row ? idOf(placed.row.class_id) : undefined;
      if (section === undefined || Number.isNaN(section) || section === replaced.storedSection) continue;
      this.reader.begin({ line: replaced.line, values: [] });
      if (placed === klass) book.rewrite(klass, this.reader);
      const ofClass = ([, row]: [string, Record<string, string>]) => replaced.names.has(row.classSourcedId);
      const moved = [
        ...this.staying('teacher')
          .filter(ofClass)
          .map(([sourcedId]) => book.find('teacher_assignments', sourcedId)),
        ...[...this.kept.lineItems].filter(ofClass).map(([sourcedId]) => book.find('assessments', sourcedId)),
      ];
      for (const entry of moved)
        if (entry && entry.line === 0)
          patches.push({ table: entry.table, id: entry.id, columns: { class_id: section } });
    }
  }
}
