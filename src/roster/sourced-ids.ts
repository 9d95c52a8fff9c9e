import type { SchoolTableName } from '../store/roster/school-tables';

/**
 * The sourcedId an export gives a record no import brought (the demo school's): its table's prefix
 * and its id. A record an import brought keeps the sourcedId it came with.
 */
const PREFIXES: Record<SchoolTableName, string> = {
  schools: 'org',
  academic_years: 'year',
  terms: 'term',
  grade_levels: 'grade',
  classes: 'class',
  subjects: 'course',
  class_subjects: 'section',
  teachers: 'teacher',
  teacher_assignments: 'teaching',
  students: 'student',
  student_records: 'enrollment',
  guardians: 'guardian',
  student_guardians: 'link',
  devices: 'device',
  assessment_categories: 'category',
  assessments: 'lineitem',
  marks: 'result',
  absence_types: 'absence-type',
  attendance: 'attendance',
  note_types: 'note-type',
  student_notes: 'note',
  class_notes: 'class-note',
  exams: 'exam',
  exam_slots: 'exam-slot',
};

export function generatedSourcedId(table: SchoolTableName, id: number): string {
  return `${PREFIXES[table]}-${id}`;
}

/** The id of a record of `table` by the sourcedId an export made up for it (`student-5`); undefined for another. */
export function generatedIdOf(table: SchoolTableName, sourcedId: string): number | undefined {
  const prefix = `${PREFIXES[table]}-`;
  const digits = sourcedId.startsWith(prefix) ? sourcedId.slice(prefix.length) : '';
  return /^[1-9]\d{0,14}$/.test(digits) ? Number(digits) : undefined;
}
