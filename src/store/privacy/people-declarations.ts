import { NOT_PERSONAL as NO, personal, type TableDeclarations } from './declaration-types';

const UNTIL_ERASED =
  'Until the student is erased: by `school-service subject erase`, by the retention after leaving ' +
  '(RETENTION_AFTER_LEAVING_DAYS), or when an import or sync deletes them.';

/** The people of the school and what is recorded about each child. */
export const PEOPLE_DECLARATIONS: TableDeclarations<
  | 'teachers'
  | 'students'
  | 'student_records'
  | 'guardians'
  | 'student_guardians'
  | 'devices'
  | 'marks'
  | 'attendance'
  | 'student_notes'
  | 'generated_documents'
> = {
  teachers: {
    holds: 'A teacher.',
    why: "Operations name a child's teachers; callers may be scoped to a teacher.",
    kept:
      'As long as the school lists them (an import or sync removes those it no longer lists), or until ' +
      'the teacher is erased (`school-service subject erase --teacher`).',
    columns: {
      id: NO,
      name_ar: personal('teacher', 'name in Arabic'),
      name_en: personal('teacher', 'name in Latin script'),
      phone: personal('teacher', 'phone number'),
    },
    about: { teacher: { column: 'id' } },
    erasureOf: {
      teacher: {
        empty:
          'the name and phone number are emptied; the id stays, as the classes they taught and the notes ' +
          'they wrote point at it',
      },
    },
  },
  students: {
    holds: 'A student.',
    why: 'Every operation about a child reads it (GetStudentInfoById, reports, marks).',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      name_ar: personal('student', 'name in Arabic'),
      name_en: personal('student', 'name in Latin script'),
      gender: personal('student', 'gender'),
      birth_date: personal('student', 'birth date'),
      phone: personal('student', 'phone number'),
    },
    about: { student: { column: 'id' } },
  },
  student_records: {
    holds: "A student's enrolment in a class for a year.",
    why: 'Marks, attendance and documents hang off it; it says which class a child is in.',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      student_id: personal('student', 'whose enrolment'),
      class_id: personal('student', 'the class they are in'),
      academic_year_id: NO,
      enrolled_on: personal('student', 'when they were enrolled'),
      status: personal('student', 'active or withdrawn'),
    },
    about: { student: { column: 'student_id' } },
  },
  guardians: {
    holds: 'A parent or guardian.',
    why: 'Guardians are sent SMS and pushes about their children; callers may be scoped to one.',
    kept: 'Until the last of their children is erased, or an import or sync removes them.',
    columns: {
      id: NO,
      name_ar: personal('guardian', 'name in Arabic'),
      name_en: personal('guardian', 'name in Latin script'),
      phone: personal('guardian', 'phone number'),
    },
    about: { guardian: { column: 'id' } },
  },
  student_guardians: {
    holds: 'Who is guardian of which child.',
    why: 'It decides which children a guardian sees and who is told about a child.',
    kept: UNTIL_ERASED,
    columns: {
      student_id: personal('student', 'their guardian'),
      guardian_id: personal('guardian', 'their child'),
      relation: personal('guardian', 'father, mother or guardian'),
    },
    about: { student: { column: 'student_id' }, guardian: { column: 'guardian_id' } },
  },
  devices: {
    holds: "A guardian's phone registered for pushes.",
    why: 'Pushes go to it (PushNotificationToGateway, mark notifications).',
    kept: 'Until the guardian goes, or the push gateway reports the token gone (then disabled).',
    columns: {
      id: NO,
      guardian_id: personal('guardian', 'whose device'),
      application_id: NO,
      device_id: personal('guardian', "the device's identifier"),
      push_token: personal('guardian', "the device's push token"),
      platform: personal('guardian', 'android or ios'),
      enabled: NO,
    },
    about: { guardian: { column: 'guardian_id' } },
  },
  marks: {
    holds: "A student's score in an assessment.",
    why: 'Marks are answered to the student, their guardians and teachers, and printed on report cards.',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      assessment_id: NO,
      student_record_id: personal('student', 'whose mark'),
      score: personal('student', 'the score'),
    },
    about: { student: { enrolment: 'student_record_id' } },
  },
  attendance: {
    holds: "A student's absence or lateness on a day.",
    why: 'Answered to guardians and teachers; counted on report cards.',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      student_record_id: personal('student', 'whose absence'),
      occurred_on: personal('student', 'the day'),
      kind: personal('student', 'absence or lateness'),
      absence_type_id: personal('student', 'why they were absent'),
      minutes_late: personal('student', 'how late'),
      note: personal('student', "the school's note about it"),
    },
    about: { student: { enrolment: 'student_record_id' } },
  },
  student_notes: {
    holds: 'A note a teacher wrote about a student.',
    why: 'Answered to the student and their guardians (GetStudentNoteByID).',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      student_id: personal('student', 'whom it is about'),
      note_type_id: personal('student', 'praise or warning'),
      teacher_id: personal('teacher', 'who wrote it'),
      written_on: personal('student', 'when'),
      text: personal('student', "the teacher's words about them"),
    },
    about: { student: { column: 'student_id' }, teacher: { column: 'teacher_id' } },
    erasureOf: {
      teacher: { keep: "the note is the student's record; its author is the teacher's id, without a name" },
    },
  },
  generated_documents: {
    holds: 'A report card or term book issued as PDF.',
    why: 'The same request gets the same file back, without rendering it again.',
    kept: UNTIL_ERASED,
    columns: {
      id: NO,
      kind: NO,
      student_record_id: personal('student', 'whose document'),
      term_id: NO,
      input_fingerprint: NO,
      content_hash: NO,
      file_name: NO,
      content_type: NO,
      size: NO,
      content: personal('student', 'the PDF: name, marks, attendance, teachers'),
      issued_on: NO,
    },
    about: { student: { enrolment: 'student_record_id' } },
  },
};
