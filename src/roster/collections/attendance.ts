import { MAX_TEXT_LENGTH } from '../fields';
import { type AsyncRowsOf, storedById } from './collection';
import {
  type FilledRow,
  OWN_COMMON_COLUMNS,
  type OwnFileCollection,
  type OwnFileReader,
  ownCells,
  streamedRows,
} from './own-file';

/** attendance.csv: a student's absence or lateness in their homeroom class on a day. */
const COLUMNS = [
  ...OWN_COMMON_COLUMNS,
  'studentSourcedId',
  'classSourcedId',
  'date',
  'kind',
  'absenceTypeSourcedId',
  'minutesLate',
  'note',
] as const;

type Column = (typeof COLUMNS)[number];

/** An absence names its type, a lateness its minutes; the student must be enrolled in the class. */
const read: OwnFileReader<'attendance', Column> = (reader, resolve, { context, recordOf }): FilledRow<'attendance'> => {
  const student = resolve('studentSourcedId', ['students'], 'student');
  const klass = resolve('classSourcedId', ['classes'], 'homeroom class');
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
};

export const attendance = {
  name: 'attendance',
  table: 'attendance',
  columns: COLUMNS,
  required: ['sourcedId', 'studentSourcedId', 'classSourcedId', 'date', 'kind'],
  read,
  export: {
    reads: { whole: ['student_records', 'students', 'classes', 'absence_types'], paged: ['attendance'] },
    header: COLUMNS,
    async *rows({ school }): AsyncRowsOf<Column> {
      const records = storedById(school, 'student_records');
      for await (const row of streamedRows(school, 'attendance')) {
        const record = records.get(Number(row.student_record_id));
        yield {
          studentSourcedId: school.ref('students', record?.student_id),
          classSourcedId: school.ref('classes', record?.class_id),
          date: row.occurred_on,
          kind: row.kind,
          absenceTypeSourcedId: school.ref('absence_types', row.absence_type_id),
          minutesLate: row.minutes_late,
          note: row.note,
          ...ownCells(school, 'attendance', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'attendance', 'attendance', Column>;
