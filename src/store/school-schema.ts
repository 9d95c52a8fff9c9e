import type { ColumnType, Generated } from 'kysely';

/**
 * The school's own records as kysely types: calendar, classes, people, marks, attendance, notes
 * and exams (the service's own tables are in schema.ts). Identifiers are integers counting from 1,
 * the legacy system's form. Dates are ISO text (YYYY-MM-DD), times HH:MM, timestamps ISO 8601: the
 * same text on SQLite and PostgreSQL, so the same queries and comparisons serve both.
 */

export interface SchoolTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
}

export interface AcademicYearTable {
  id: Generated<number>;
  name: string;
  starts_on: string;
  ends_on: string;
}

export interface TermTable {
  id: Generated<number>;
  academic_year_id: number;
  name_ar: string;
  name_en: string;
  starts_on: string;
  ends_on: string;
}

export interface GradeLevelTable {
  id: Generated<number>;
  ordinal: number;
  name_ar: string;
  name_en: string;
}

export interface ClassTable {
  id: Generated<number>;
  academic_year_id: number;
  grade_level_id: number;
  section: string;
  name_ar: string;
  name_en: string;
}

export interface SubjectTable {
  id: Generated<number>;
  code: string;
  name_ar: string;
  name_en: string;
}

export interface TeacherTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
  phone: string;
}

export interface TeacherAssignmentTable {
  id: Generated<number>;
  teacher_id: number;
  class_id: number;
  subject_id: number;
}

export interface StudentTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
  gender: 'M' | 'F';
  birth_date: string;
  phone: string | null;
}

/** An enrolment: one student in one class for one academic year. */
export interface StudentRecordTable {
  id: Generated<number>;
  student_id: number;
  /**
   * Null only for a student an imported bundle gives no class section (enrolled in the year alone).
   * Read as a number: every query that needs the class joins classes, which leaves such records out;
   * the student's own information joins it optionally (ClassId nil).
   */
  class_id: ColumnType<number, number | null, number | null>;
  academic_year_id: number;
  enrolled_on: string;
  status: 'active' | 'withdrawn';
}

export interface GuardianTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
  phone: string;
}

export interface StudentGuardianTable {
  student_id: number;
  guardian_id: number;
  relation: 'father' | 'mother' | 'guardian';
}

export interface DeviceTable {
  id: Generated<number>;
  guardian_id: number;
  application_id: string;
  device_id: string;
  push_token: string;
  platform: 'android' | 'ios';
  enabled: number;
}

export interface AssessmentTable {
  id: Generated<number>;
  class_id: number;
  subject_id: number;
  term_id: number;
  name_ar: string;
  name_en: string;
  held_on: string;
  max_score: number;
  category_id: number | null;
}

/** The kinds of assessment a school grades (quiz, midterm, ...): OneRoster's categories. */
export interface AssessmentCategoryTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
}

/** A subject a class takes: OneRoster's scheduled class, which its teachers' assignments and assessments name. */
export interface ClassSubjectTable {
  id: Generated<number>;
  class_id: number;
  subject_id: number;
}

export interface MarkTable {
  id: Generated<number>;
  assessment_id: number;
  student_record_id: number;
  score: number;
}

export interface AbsenceTypeTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
}

export interface AttendanceTable {
  id: Generated<number>;
  student_record_id: number;
  occurred_on: string;
  kind: 'absence' | 'lateness';
  absence_type_id: number | null;
  minutes_late: number | null;
  note: string | null;
}

export interface NoteTypeTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
  is_positive: number;
}

export interface StudentNoteTable {
  id: Generated<number>;
  student_id: number;
  note_type_id: number;
  teacher_id: number;
  written_on: string;
  text: string;
}

export interface ClassNoteTable {
  id: Generated<number>;
  class_id: number;
  teacher_id: number;
  posted_on: string;
  title: string;
  text: string;
}

export interface ExamTable {
  id: Generated<number>;
  term_id: number;
  name_ar: string;
  name_en: string;
}

export interface ExamSlotTable {
  id: Generated<number>;
  exam_id: number;
  class_id: number;
  subject_id: number;
  held_on: string;
  starts_at: string;
  ends_at: string;
  room: string;
}
