import type { SchoolTableName } from '../store/roster/school-tables';
import { type FieldReader, MAX_TEXT_LENGTH } from './fields';
import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';

/**
 * The service's own files, for what OneRoster 1.1 has no place for. Each starts with sourcedId,
 * status, dateLastModified and contractId as OneRoster files do, and names other records by their
 * sourcedIds. Their header lines and examples are in docs/import.md.
 */

type Fill = (
  reader: FieldReader,
  ref: (column: string, tables: SchoolTableName[], what: string) => Entry | undefined,
) => Record<string, unknown>;

async function readOwnFile(
  context: ImportContext,
  file: string,
  table: SchoolTableName,
  required: readonly string[],
  fill: Fill,
): Promise<void> {
  await forEachRow<string>(context, file, ['sourcedId', ...required], (reader) => {
    const start = rowStart(context, reader, table, 'contractId');
    if (!start) return;
    const ref = (column: string, tables: SchoolTableName[], what: string) => {
      const sourcedId = reader.required(column);
      return sourcedId ? context.book.resolve(reader, column, tables, sourcedId, what) : undefined;
    };
    const row = fill(reader, ref);
    takeRow(context, reader, table, start, row, undefined, 'contractId');
  });
  assignIds(context, table);
}

const named = (reader: FieldReader) => {
  const name = reader.required('name') ?? '';
  return { name_ar: name, name_en: reader.text('nameEn') || name };
};

export async function readOwnFiles(
  context: ImportContext,
  recordOf: (studentId: number, classId: number) => number | undefined,
): Promise<void> {
  await readOwnFile(context, 'absenceTypes.csv', 'absence_types', ['name'], named);
  await readOwnFile(context, 'noteTypes.csv', 'note_types', ['name', 'positive'], (reader) => ({
    ...named(reader),
    is_positive: reader.boolean('positive', true) ? 1 : 0,
  }));
  await readOwnFile(
    context,
    'attendance.csv',
    'attendance',
    ['studentSourcedId', 'classSourcedId', 'date', 'kind'],
    (reader, ref) => {
      const student = ref('studentSourcedId', ['students'], 'student');
      const klass = ref('classSourcedId', ['classes'], 'homeroom class');
      const kind = reader.oneOf('kind', ['absence', 'lateness'], true);
      const typeId = reader.raw('absenceTypeSourcedId');
      const type = typeId
        ? context.book.resolve(reader, 'absenceTypeSourcedId', ['absence_types'], typeId, 'absence type')
        : undefined;
      const minutesLate = reader.integer('minutesLate', kind === 'lateness', { min: 0, max: 1440 });
      if (kind === 'absence' && !typeId)
        reader.fail('absenceTypeSourcedId', 'missing-value', 'an absence needs its absenceTypeSourcedId');
      const record = student && klass ? recordOf(student.id, klass.id) : undefined;
      if (student && klass && record === undefined && !context.book.leftOutFor(reader, 'student_records')) {
        reader.fail(
          'classSourcedId',
          'unknown-reference',
          `student "${student.sourcedId}" is not enrolled in class "${klass.sourcedId}"`,
        );
      }
      return {
        student_record_id: record,
        occurred_on: reader.date('date', true),
        kind,
        absence_type_id: kind === 'absence' ? type : null,
        minutes_late: kind === 'lateness' ? minutesLate : null,
        note: reader.text('note', { max: MAX_TEXT_LENGTH }) || null,
      };
    },
  );
  await readOwnFile(
    context,
    'studentNotes.csv',
    'student_notes',
    ['studentSourcedId', 'noteTypeSourcedId', 'teacherSourcedId', 'date', 'text'],
    (reader, ref) => ({
      student_id: ref('studentSourcedId', ['students'], 'student'),
      note_type_id: ref('noteTypeSourcedId', ['note_types'], 'note type'),
      teacher_id: ref('teacherSourcedId', ['teachers'], 'teacher'),
      written_on: reader.date('date', true),
      text: reader.required('text', MAX_TEXT_LENGTH),
    }),
  );
  await readOwnFile(
    context,
    'classNotes.csv',
    'class_notes',
    ['classSourcedId', 'teacherSourcedId', 'date', 'title', 'text'],
    (reader, ref) => ({
      class_id: ref('classSourcedId', ['classes'], 'homeroom class'),
      teacher_id: ref('teacherSourcedId', ['teachers'], 'teacher'),
      posted_on: reader.date('date', true),
      title: reader.required('title'),
      text: reader.required('text', MAX_TEXT_LENGTH),
    }),
  );
  await readOwnFile(context, 'exams.csv', 'exams', ['termSourcedId', 'name'], (reader, ref) => ({
    term_id: ref('termSourcedId', ['terms'], 'term'),
    ...named(reader),
  }));
  await readOwnFile(
    context,
    'examSlots.csv',
    'exam_slots',
    ['examSourcedId', 'classSourcedId', 'courseSourcedId', 'date', 'startTime', 'endTime'],
    (reader, ref) => {
      const startsAt = reader.time('startTime', true);
      const endsAt = reader.time('endTime', true);
      if (startsAt && endsAt && endsAt <= startsAt)
        reader.fail('endTime', 'bad-date', 'endTime is not after startTime');
      return {
        exam_id: ref('examSourcedId', ['exams'], 'exam'),
        class_id: ref('classSourcedId', ['classes'], 'homeroom class'),
        subject_id: ref('courseSourcedId', ['subjects'], 'course'),
        held_on: reader.date('date', true),
        starts_at: startsAt,
        ends_at: endsAt,
        room: reader.text('room'),
      };
    },
  );
  await readOwnFile(
    context,
    'devices.csv',
    'devices',
    ['guardianSourcedId', 'applicationId', 'deviceId', 'pushToken', 'platform'],
    (reader, ref) => ({
      guardian_id: ref('guardianSourcedId', ['guardians'], 'guardian'),
      application_id: reader.required('applicationId'),
      device_id: reader.required('deviceId'),
      push_token: reader.required('pushToken', MAX_TEXT_LENGTH),
      platform: reader.oneOf('platform', ['android', 'ios'], true),
      enabled: reader.boolean('enabled', false) === false ? 0 : 1,
    }),
  );
}
