import type { Database } from '../schema';

/**
 * The tables that hold the school itself, parents before children, with the columns an import
 * writes and the tables each column points to. The import replaces them in this order (children
 * first when deleting), export reads them, and a delta import follows the references to delete
 * what hangs off a deleted record. The service's own tables (outbox, documents, callers, audit,
 * processes, reference versions, comparisons with a legacy service) are not the school's and are not listed.
 */
export interface SchoolTable {
  readonly name: SchoolTableName;
  /** Every column but the integer id, in the order they are written. */
  readonly columns: readonly string[];
  /** Column -> the table its value is the id of. */
  readonly references: Readonly<Record<string, SchoolTableName>>;
  /** False only for the guardian links, keyed by the pair. */
  readonly hasId: boolean;
}

/** References that may be empty: deleting what they name empties them rather than deleting the row. */
export const NULLABLE_REFERENCES: ReadonlySet<string> = new Set([
  'assessments.category_id',
  'attendance.absence_type_id',
]);

/** The tables of the service's own bookkeeping, which no import writes. */
export type ServiceTableName =
  | 'outbox_messages'
  | 'rate_limit_events'
  | 'callers'
  | 'ws_security_nonces'
  | 'audit_events'
  | 'audit_subjects'
  | 'roster_ids'
  | 'roster_fields'
  | 'roster_imports'
  | 'service_processes'
  | 'reference_versions'
  | 'roster_versions'
  | 'roster_outlines'
  | 'roster_users_versions'
  | 'store_key'
  | 'shadow_comparisons'
  | 'shadow_differences'
  | 'sis_sync_state'
  | 'sis_sync_runs'
  | 'subject_erasures'
  | 'students_left'
  | 'retention_runs'
  | 'roster_tombstones';

export type SchoolTableName = Exclude<keyof Database, 'generated_documents' | ServiceTableName>;

const table = (
  name: SchoolTableName,
  columns: string[],
  references: Record<string, SchoolTableName> = {},
  hasId = true,
): SchoolTable => ({ name, columns, references, hasId });

export const SCHOOL_TABLES: readonly SchoolTable[] = [
  table('schools', ['name_ar', 'name_en']),
  table('academic_years', ['name', 'starts_on', 'ends_on']),
  table('terms', ['academic_year_id', 'name_ar', 'name_en', 'starts_on', 'ends_on'], {
    academic_year_id: 'academic_years',
  }),
  table('grade_levels', ['ordinal', 'name_ar', 'name_en']),
  table('classes', ['academic_year_id', 'grade_level_id', 'section', 'name_ar', 'name_en'], {
    academic_year_id: 'academic_years',
    grade_level_id: 'grade_levels',
  }),
  table('subjects', ['code', 'name_ar', 'name_en']),
  table('class_subjects', ['class_id', 'subject_id'], { class_id: 'classes', subject_id: 'subjects' }),
  table('teachers', ['name_ar', 'name_en', 'phone']),
  table('teacher_assignments', ['teacher_id', 'class_id', 'subject_id'], {
    teacher_id: 'teachers',
    class_id: 'classes',
    subject_id: 'subjects',
  }),
  table('students', ['name_ar', 'name_en', 'gender', 'birth_date', 'phone']),
  table('student_records', ['student_id', 'class_id', 'academic_year_id', 'enrolled_on', 'status'], {
    student_id: 'students',
    class_id: 'classes',
    academic_year_id: 'academic_years',
  }),
  table('guardians', ['name_ar', 'name_en', 'phone']),
  table(
    'student_guardians',
    ['student_id', 'guardian_id', 'relation'],
    { student_id: 'students', guardian_id: 'guardians' },
    false,
  ),
  table('devices', ['guardian_id', 'application_id', 'device_id', 'push_token', 'platform', 'enabled'], {
    guardian_id: 'guardians',
  }),
  table('assessment_categories', ['name_ar', 'name_en']),
  table(
    'assessments',
    ['class_id', 'subject_id', 'term_id', 'name_ar', 'name_en', 'held_on', 'max_score', 'category_id'],
    { class_id: 'classes', subject_id: 'subjects', term_id: 'terms', category_id: 'assessment_categories' },
  ),
  table('marks', ['assessment_id', 'student_record_id', 'score'], {
    assessment_id: 'assessments',
    student_record_id: 'student_records',
  }),
  table('absence_types', ['name_ar', 'name_en']),
  table('attendance', ['student_record_id', 'occurred_on', 'kind', 'absence_type_id', 'minutes_late', 'note'], {
    student_record_id: 'student_records',
    absence_type_id: 'absence_types',
  }),
  table('note_types', ['name_ar', 'name_en', 'is_positive']),
  table('student_notes', ['student_id', 'note_type_id', 'teacher_id', 'written_on', 'text'], {
    student_id: 'students',
    note_type_id: 'note_types',
    teacher_id: 'teachers',
  }),
  table('class_notes', ['class_id', 'teacher_id', 'posted_on', 'title', 'text'], {
    class_id: 'classes',
    teacher_id: 'teachers',
  }),
  table('exams', ['term_id', 'name_ar', 'name_en'], { term_id: 'terms' }),
  table('exam_slots', ['exam_id', 'class_id', 'subject_id', 'held_on', 'starts_at', 'ends_at', 'room'], {
    exam_id: 'exams',
    class_id: 'classes',
    subject_id: 'subjects',
  }),
];

export function schoolTable(name: SchoolTableName): SchoolTable {
  const found = SCHOOL_TABLES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no school table ${name}`);
  return found;
}

/** The tables whose rows point at `name`, with the pointing column. */
export function tablesReferencing(name: SchoolTableName): Array<{ table: SchoolTable; column: string }> {
  return SCHOOL_TABLES.flatMap((candidate) =>
    Object.entries(candidate.references)
      .filter(([, target]) => target === name)
      .map(([column]) => ({ table: candidate, column })),
  );
}
