import { gradeLevelByCode, type PendingSection, type PendingSections } from './class-files';
import type { FieldReader } from './fields';
import type { WarningKind } from './problems';
import type { ImportContext } from './import-context';
import { assignIds } from './read-file';
import type { Entry } from './roster-book';

/**
 * Class sections (ClassID) where the bundle has no homeroom class for them. Many SIS export
 * scheduled classes only; our model needs each student in one class section per year and each
 * scheduled class taught to one. A student's section is, in this order: a homeroom they are
 * enrolled in (read as such); the homeroom `metadata.homeroomSourcedId` of their scheduled classes
 * names; the classCode most of their scheduled classes carry, when at least two classes of the
 * bundle carry it (`7A`); their grade (`users.grades`, else the grade their scheduled classes
 * carry), one section per grade level; else none
 * (an enrolment record without a class section). Each section made here, and each student left
 * without one, is a warning naming the rule and the rows it came from; never a problem.
 *
 * A delta may enrol a new student in scheduled classes the store already holds, each already taught
 * to its section: the student's section is the one most of those classes are taught to.
 */

/** A student's enrolments in scheduled classes: the classes, the enrolment lines and the earliest beginDate. */
export interface ScheduledEnrolments {
  readonly classes: Entry[];
  readonly lines: number[];
  beginDate: string | undefined;
}

const LISTED = 5;

/** "classes.csv:4, 5, 9 and 3 more": the rows a warning names, the first few of them. */
function rowsOf(file: string, lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const shown = sorted.slice(0, LISTED).join(', ');
  return `${file}:${shown}${sorted.length > LISTED ? ` and ${sorted.length - LISTED} more` : ''}`;
}

const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));

export class SectionInference {
  /** Sections made here, with the rule and rows they came from, warned about once all are known. */
  private readonly made = new Map<Entry, { rule: WarningKind; why: string; lines: number[]; students: number }>();

  constructor(
    private readonly context: ImportContext,
    private readonly pending: PendingSections,
    private readonly reader: FieldReader,
  ) {}

  private yearEntry(year: unknown): Entry | undefined {
    if (year === undefined || year === null) return undefined;
    if (typeof year === 'object') return year as Entry;
    return this.context.book.all('academic_years').find((entry) => entry.id === Number(year));
  }

  /** The section under a made-up sourcedId (`section:YEAR:NAME`), taken into the book at its first use. */
  private section(
    year: Entry,
    name: string,
    grade: string,
    line: number,
    reason: { rule: WarningKind; why: string },
  ): Entry | undefined {
    const { book } = this.context;
    const sourcedId = `section:${year.sourcedId}:${name}`;
    const known = book.find('classes', sourcedId);
    if (known) return known;
    this.reader.begin({ line, values: [] });
    const gradeLevel = gradeLevelByCode(this.context, this.reader, grade || 'UG');
    if (!gradeLevel) return undefined;
    const entry = book.accept('classes', this.reader, {
      sourcedId,
      row: { academic_year_id: year, grade_level_id: gradeLevel, section: name, name_ar: name, name_en: name },
      modifiedAt: undefined,
    });
    if (entry) this.made.set(entry, { ...reason, lines: [], students: 0 });
    return entry;
  }

  private note(section: Entry, lines: readonly number[]): void {
    const made = this.made.get(section);
    if (!made) return;
    made.lines.push(...lines);
    made.students += 1;
  }

  /** The code carried by the most of these classes, if two classes of the bundle carry it and no other code ties. */
  private sharedCode(classes: readonly PendingSection[]): string | undefined {
    const counts = new Map<string, number>();
    for (const info of classes) if (info.code) counts.set(info.code, (counts.get(info.code) ?? 0) + 1);
    const ranked = [...counts].sort((a, b) => b[1] - a[1]);
    if (ranked.length === 0 || (ranked.length > 1 && ranked[0][1] === ranked[1][1])) return undefined;
    const code = ranked[0][0];
    let carriers = 0;
    for (const info of this.pending.values()) if (info.code === code) carriers += 1;
    return carriers >= 2 ? code : undefined;
  }

  /** Gives each student with scheduled enrolments and no enrolment record a section (or none) and a record. */
  placeStudents(scheduled: ReadonlyMap<Entry, ScheduledEnrolments>): void {
    const { book } = this.context;
    const enrolled = new Set(book.all('student_records').map((record) => idOf(record.row?.student_id)));
    for (const [student, enrolments] of scheduled) {
      if (enrolled.has(student.id)) continue;
      const infos = enrolments.classes.flatMap((klass) => {
        const info = this.pending.get(klass);
        return info ? [info] : [];
      });
      const taughtTo = infos.length === 0 ? this.storedSection(enrolments.classes) : undefined;
      const year = this.yearEntry(
        taughtTo ? taughtTo.row?.academic_year_id : mostCommon(infos.map((info) => info.year)),
      );
      if (!year) continue;
      const section = taughtTo ?? this.sectionOfStudent(student, infos, year, enrolments.lines[0]);
      this.reader.begin({ line: enrolments.lines[0], values: [] });
      if (section) this.note(section, enrolments.lines);
      else {
        this.reader.warn(
          'userSourcedId',
          'no-class-section',
          `student "${student.sourcedId}" has no homeroom, no metadata.homeroomSourcedId, no shared classCode ` +
            'and no grade: enrolled with no class section',
        );
      }
      book.accept('student_records', this.reader, {
        sourcedId: `record:${student.sourcedId}:${year.sourcedId}`,
        row: {
          student_id: student,
          class_id: section,
          academic_year_id: year,
          enrolled_on: enrolments.beginDate ?? year.row?.starts_on ?? '',
          status: 'active',
        },
        modifiedAt: undefined,
      });
    }
  }

  /** The section most of these scheduled classes of the store are taught to (a delta's student). */
  private storedSection(classes: readonly Entry[]): Entry | undefined {
    const sections = classes.flatMap((klass) => {
      const section = klass.line === 0 ? klass.row?.class_id : undefined;
      return section === undefined || section === null ? [] : [idOf(section)];
    });
    const id = mostCommon(sections);
    return id === undefined ? undefined : this.context.book.all('classes').find((entry) => entry.id === id);
  }

  private sectionOfStudent(
    student: Entry,
    infos: readonly PendingSection[],
    year: Entry,
    line: number,
  ): Entry | undefined {
    const { book } = this.context;
    const named = new Set(infos.map((info) => info.homeroom).filter((homeroom) => homeroom !== ''));
    const homerooms = [...named].flatMap((sourcedId) => {
      const found = book.find('classes', sourcedId);
      return found ? [found] : [];
    });
    if (homerooms.length === 1) return homerooms[0];
    const code = this.sharedCode(infos);
    if (code) {
      const carriers = infos.filter((info) => info.code === code);
      const section = this.section(year, code, mostCommon(carriers.map((info) => info.grade)) ?? '', line, {
        rule: 'section-from-class-code',
        why: `classCode "${code}" of classes.csv`,
      });
      return section;
    }
    const userGrade = this.context.userGrades.get(student.sourcedId);
    const grade = userGrade ?? mostCommon(infos.map((info) => info.grade));
    if (grade) {
      return this.section(year, `grade-${grade}`, grade, line, {
        rule: 'section-from-grade',
        why: `grade "${grade}" of ${userGrade ? 'users.csv' : 'their scheduled classes in classes.csv'}`,
      });
    }
    return undefined;
  }

  /**
   * Gives each scheduled class its section: the homeroom it names, else the section its students
   * are in (the one most of them are in, a warning when they are in several), else a section of
   * its own code, grade or title (a warning). A second scheduled class of one subject in one
   * section is the first under another name.
   */
  placeClasses(sectionsOf: (klass: Entry) => Map<Entry, number>): void {
    const { book } = this.context;
    const classesReader = this.context.readers.get('classes.csv');
    const taken = new Map<string, Entry>();
    for (const klass of book.all('class_subjects')) {
      const row = klass.row;
      if (row?.class_id && !this.pending.has(klass)) taken.set(pairKey(row.class_id, row.subject_id), klass);
    }
    // In a delta, the classes the store holds are placed first: a new class of the same subject in
    // the same section is then the stored one under another name, never a second record of the pair.
    const known = (info: PendingSection) => (info.storedSection === undefined ? 1 : 0);
    for (const [klass, info] of [...this.pending].sort((a, b) => known(a[1]) - known(b[1]))) {
      const reader = info.reader ?? classesReader;
      if (!reader) continue;
      reader.begin({ line: info.line, values: [] });
      const found = this.sectionOfClass(klass, info, reader, sectionsOf(klass));
      if (!found || !klass.row) {
        book.reject(klass);
        continue;
      }
      klass.row.class_id = found;
      const key = pairKey(found, klass.row.subject_id);
      const first = taken.get(key);
      if (!first) taken.set(key, klass);
      else if (
        book.mode === 'bulk' ||
        info.anotherName ||
        book.storedId('class_subjects', klass.sourcedId) === undefined
      ) {
        book.reject(klass);
        book.alias(klass.sourcedId, first);
      } else taken.set(key, this.oneOfTwoStored(klass, first, reader));
    }
    assignIds(this.context, 'grade_levels');
    assignIds(this.context, 'classes');
    assignIds(this.context, 'class_subjects');
  }

  /**
   * A stored class a delta places again in the section of a stored class of its subject: they are
   * one, under the sourcedId the bulk import met first (the lower id), the other its other name.
   */
  private oneOfTwoStored(klass: Entry, first: Entry, reader: FieldReader): Entry {
    const { book } = this.context;
    // A delta's new class of that subject and section is the stored one, as when the store's is not placed again.
    const storedId = (entry: Entry) => book.storedId('class_subjects', entry.sourcedId) ?? Number.POSITIVE_INFINITY;
    const [kept, other] = storedId(klass) < storedId(first) ? [klass, first] : [first, klass];
    book.delete('class_subjects', other.sourcedId, reader);
    for (const [sourcedId, target] of book.aliasesOf('class_subjects'))
      if (target === other) book.alias(sourcedId, kept);
    book.alias(other.sourcedId, kept);
    return kept;
  }

  private sectionOfClass(
    klass: Entry,
    info: PendingSection,
    reader: FieldReader,
    sections: Map<Entry, number>,
  ): Entry | undefined {
    const { book } = this.context;
    if (info.homeroom) {
      const found = book.find('classes', info.homeroom);
      if (!found) {
        reader.fail('metadata.homeroomSourcedId', 'unknown-reference', `"${info.homeroom}" names no homeroom class`);
      }
      return found;
    }
    const ranked = [...sections].sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1) {
      const others = ranked
        .slice(1)
        .map(([section, count]) => `${count} in "${section.sourcedId}"`)
        .join(', ');
      reader.warn(
        'classType',
        'class-in-several-sections',
        `scheduled class "${klass.sourcedId}" has students in ${ranked.length} class sections: taught to ` +
          `"${ranked[0][0].sourcedId}" (${ranked[0][1]} students); ${others} see it as a subject of that section`,
      );
    }
    if (ranked.length > 0) return ranked[0][0];
    // A delta that changes a scheduled class without listing its pupils' enrolments (a new title)
    // leaves it taught to the section its pupils are in, not to a section made for it.
    const stored = info.storedSection;
    const kept = stored === undefined ? undefined : book.all('classes').find((entry) => entry.id === stored);
    if (kept) return kept;
    const year = this.yearEntry(info.year);
    if (!year) {
      reader.fail('termSourcedIds', 'unknown-reference', `scheduled class "${klass.sourcedId}" has no school year`);
      return undefined;
    }
    const [name, rule, why]: [string, WarningKind, string] = info.code
      ? [info.code, 'section-from-class-code', `classCode "${info.code}" of classes.csv`]
      : info.grade
        ? [`grade-${info.grade}`, 'section-from-grade', `grade "${info.grade}" of classes.csv`]
        : [info.title || klass.sourcedId, 'section-of-its-own', 'the title of classes.csv'];
    const section = this.section(year, name, info.grade, info.line, { rule, why });
    if (section && !info.reader) this.made.get(section)?.lines.push(-info.line);
    return section;
  }

  /** One warning per section made, at the first row it came from, naming the rule and its rows. */
  warnMade(): void {
    const classes = this.context.readers.get('classes.csv');
    for (const [section, made] of this.made) {
      const enrolments = made.lines.filter((line) => line > 0);
      const classLines = made.lines.filter((line) => line < 0).map((line) => -line);
      const from = [
        made.students > 0 ? `${made.students} students (${rowsOf('enrollments.csv', enrolments)})` : '',
        classLines.length > 0
          ? `scheduled classes none of whose students has a section (${rowsOf('classes.csv', classLines)})`
          : '',
      ]
        .filter(Boolean)
        .join(' and ');
      const message =
        `class section "${section.row?.section}" (sourcedId "${section.sourcedId}") inferred from ${made.why}` +
        ` for ${from}`;
      const reader = enrolments.length > 0 || !classes ? this.reader : classes;
      const line = enrolments.length > 0 ? Math.min(...enrolments) : Math.min(...classLines);
      reader.warnAt(line, reader === this.reader ? 'classSourcedId' : 'classCode', made.rule, message);
    }
  }
}

function mostCommon<Value>(values: readonly Value[]): Value | undefined {
  const counts = new Map<Value, number>();
  for (const value of values) if (value !== undefined && value !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: Value | undefined;
  let top = 0;
  for (const [value, count] of counts) {
    if (count > top) {
      best = value;
      top = count;
    }
  }
  return best;
}

/**
 * A class section and subject as one key. Sections made while classes are placed have no id yet
 * (0 until the ids are given): such a section is told apart by its sourcedId, or every class of a
 * subject placed in a new section would be taken for the first one.
 */
function pairKey(section: unknown, subject: unknown): string {
  const keyOf = (value: unknown) => {
    const entry = typeof value === 'object' && value !== null ? (value as Entry) : undefined;
    return entry && entry.id === 0 ? `new ${entry.table} ${entry.sourcedId}` : idOf(value);
  };
  return `${keyOf(section)} ${keyOf(subject)}`;
}
