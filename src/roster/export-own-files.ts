import { readSchoolTable } from '../store/roster/school-reader';
import { schoolTable } from '../store/roster/school-tables';
import type { BundleWriter } from './bundle-writer';
import { emit, type SchoolSnapshot } from './school-snapshot';

/** The service's own files of an export, in the formats docs/import.md gives. */
const COMMON = ['sourcedId', 'status', 'dateLastModified', 'contractId'];

export async function exportOwnFiles(
  writer: BundleWriter,
  counts: Record<string, number>,
  school: SchoolSnapshot,
): Promise<void> {
  const start = (
    table: Parameters<SchoolSnapshot['sourcedIdOf']>[0],
    row: Parameters<SchoolSnapshot['sourcedIdOf']>[1],
  ) => [school.sourcedIdOf(table, row), '', row.modified_at ?? '', row.id];
  const stream = (table: Parameters<typeof schoolTable>[0]) => readSchoolTable(school.connection, schoolTable(table));
  await emit(
    writer,
    counts,
    'gradeLevels.csv',
    [...COMMON, 'ordinal', 'name', 'nameEn'],
    school.rows.get('grade_levels') ?? [],
    (row) => [...start('grade_levels', row), row.ordinal, row.name_ar, row.name_en],
  );
  await emit(
    writer,
    counts,
    'absenceTypes.csv',
    [...COMMON, 'name', 'nameEn'],
    school.rows.get('absence_types') ?? [],
    (row) => [...start('absence_types', row), row.name_ar, row.name_en],
  );
  await emit(
    writer,
    counts,
    'noteTypes.csv',
    [...COMMON, 'name', 'nameEn', 'positive'],
    school.rows.get('note_types') ?? [],
    (row) => [...start('note_types', row), row.name_ar, row.name_en, Number(row.is_positive) === 1 ? 'true' : 'false'],
  );
  const records = school.byId('student_records');
  await emit(
    writer,
    counts,
    'attendance.csv',
    [...COMMON, 'studentSourcedId', 'classSourcedId', 'date', 'kind', 'absenceTypeSourcedId', 'minutesLate', 'note'],
    stream('attendance'),
    (row) => {
      const record = records.get(Number(row.student_record_id));
      return [
        ...start('attendance', row),
        school.ref('students', record?.student_id),
        school.ref('classes', record?.class_id),
        row.occurred_on,
        row.kind,
        school.ref('absence_types', row.absence_type_id),
        row.minutes_late,
        row.note,
      ];
    },
  );
  await emit(
    writer,
    counts,
    'studentNotes.csv',
    [...COMMON, 'studentSourcedId', 'noteTypeSourcedId', 'teacherSourcedId', 'date', 'text'],
    stream('student_notes'),
    (row) => [
      ...start('student_notes', row),
      school.ref('students', row.student_id),
      school.ref('note_types', row.note_type_id),
      school.ref('teachers', row.teacher_id),
      row.written_on,
      row.text,
    ],
  );
  await emit(
    writer,
    counts,
    'classNotes.csv',
    [...COMMON, 'classSourcedId', 'teacherSourcedId', 'date', 'title', 'text'],
    stream('class_notes'),
    (row) => [
      ...start('class_notes', row),
      school.ref('classes', row.class_id),
      school.ref('teachers', row.teacher_id),
      row.posted_on,
      row.title,
      row.text,
    ],
  );
  await emit(
    writer,
    counts,
    'exams.csv',
    [...COMMON, 'termSourcedId', 'name', 'nameEn'],
    school.rows.get('exams') ?? [],
    (row) => [...start('exams', row), school.ref('terms', row.term_id), row.name_ar, row.name_en],
  );
  await emit(
    writer,
    counts,
    'examSlots.csv',
    [...COMMON, 'examSourcedId', 'classSourcedId', 'courseSourcedId', 'date', 'startTime', 'endTime', 'room'],
    stream('exam_slots'),
    (row) => [
      ...start('exam_slots', row),
      school.ref('exams', row.exam_id),
      school.ref('classes', row.class_id),
      school.ref('subjects', row.subject_id),
      row.held_on,
      row.starts_at,
      row.ends_at,
      row.room,
    ],
  );
  await emit(
    writer,
    counts,
    'devices.csv',
    [...COMMON, 'guardianSourcedId', 'applicationId', 'deviceId', 'pushToken', 'platform', 'enabled'],
    stream('devices'),
    (row) => [
      ...start('devices', row),
      school.ref('guardians', row.guardian_id),
      row.application_id,
      row.device_id,
      row.push_token,
      row.platform,
      Number(row.enabled) === 1 ? 'true' : 'false',
    ],
  );
}
