import { NOT_PERSONAL as NO, personal, type TableDeclarations } from './declaration-types';

/** The school's calendar and catalogue: how it is organised, about nobody in particular. */
const SCHOOL_DATA = 'The school organises its year and its teaching with it; every operation reads it.';
const WHILE_SCHOOL = 'As long as the school uses the service; an import of the school replaces it.';

export const SCHOOL_DECLARATIONS: TableDeclarations<
  | 'schools'
  | 'academic_years'
  | 'terms'
  | 'grade_levels'
  | 'classes'
  | 'subjects'
  | 'class_subjects'
  | 'assessment_categories'
  | 'assessments'
  | 'absence_types'
  | 'note_types'
  | 'exams'
  | 'exam_slots'
  | 'class_notes'
  | 'teacher_assignments'
> = {
  schools: {
    holds: 'The school, by name.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, name_ar: NO, name_en: NO },
  },
  academic_years: {
    holds: 'An academic year and its dates.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, name: NO, starts_on: NO, ends_on: NO },
  },
  terms: {
    holds: 'A term of an academic year.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, academic_year_id: NO, name_ar: NO, name_en: NO, starts_on: NO, ends_on: NO },
  },
  grade_levels: {
    holds: 'A grade level (first grade, ...).',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, ordinal: NO, name_ar: NO, name_en: NO },
  },
  classes: {
    holds: 'A class of a grade level in a year.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, academic_year_id: NO, grade_level_id: NO, section: NO, name_ar: NO, name_en: NO },
  },
  subjects: {
    holds: 'A subject taught.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, code: NO, name_ar: NO, name_en: NO },
  },
  class_subjects: {
    holds: 'A subject a class takes.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, class_id: NO, subject_id: NO },
  },
  assessment_categories: {
    holds: 'A kind of assessment (quiz, midterm, ...).',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, name_ar: NO, name_en: NO },
  },
  assessments: {
    holds: 'An assessment of a class in a subject and term; the marks point at it.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: {
      id: NO,
      class_id: NO,
      subject_id: NO,
      term_id: NO,
      name_ar: NO,
      name_en: NO,
      held_on: NO,
      max_score: NO,
      category_id: NO,
    },
  },
  absence_types: {
    holds: 'A kind of absence (excused, sick, ...).',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, name_ar: NO, name_en: NO },
  },
  note_types: {
    holds: 'A kind of note a teacher writes about a student (praise, warning, ...).',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, name_ar: NO, name_en: NO, is_positive: NO },
  },
  exams: {
    holds: 'An exam period of a term.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: { id: NO, term_id: NO, name_ar: NO, name_en: NO },
  },
  exam_slots: {
    holds: 'When and where a class sits the exam of a subject.',
    why: SCHOOL_DATA,
    kept: WHILE_SCHOOL,
    columns: {
      id: NO,
      exam_id: NO,
      class_id: NO,
      subject_id: NO,
      held_on: NO,
      starts_at: NO,
      ends_at: NO,
      room: NO,
    },
  },
  class_notes: {
    holds: 'A note a teacher posts to a whole class.',
    why: 'Guardians and students read the class notes (GetStudentsGnote).',
    kept: WHILE_SCHOOL,
    columns: {
      id: NO,
      class_id: NO,
      teacher_id: personal('teacher', 'who posted it'),
      posted_on: NO,
      title: NO,
      text: NO,
    },
    about: { teacher: { column: 'teacher_id' } },
    erasureOf: { teacher: { keep: "the class's notes stay, posted by the teacher's id, without a name" } },
  },
  teacher_assignments: {
    holds: 'A teacher teaching a subject to a class.',
    why: 'It decides what a teacher sees and which subjects they are listed with.',
    kept: WHILE_SCHOOL,
    columns: {
      id: NO,
      teacher_id: personal('teacher', 'which classes and subjects they teach'),
      class_id: NO,
      subject_id: NO,
    },
    about: { teacher: { column: 'teacher_id' } },
    erasureOf: { teacher: { keep: "a class's teacher history: who taught it, by the id, without a name" } },
  },
};
