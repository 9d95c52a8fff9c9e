import { payloadSealer } from '../../src/lib/payload-sealer';
import type { Store } from '../../src/store/open-store';
import { TEST_OUTBOX_KEY } from './test-key';

/**
 * A teacher whose every value is a string found nowhere else in the test school, so that a scan of
 * the store's files for it means something: names in Arabic and Latin script, a phone number, and
 * the e-mail the SIS gave (kept with their OneRoster row).
 */
export const UNIQUE_TEACHER = {
  nameAr: 'ضحى مسكالختام الفريدة',
  nameEn: 'Vexworth Abernathy-Quillon',
  phone: '+966547716230',
  email: 'v.abernathy-quillon@teachers.example',
  classNote: 'Field trip to the heron marshes on Thursday',
  studentNote: 'Handed in the orbit model a week early',
} as const;

/** The values that must be gone from every file once the teacher is erased (the notes they wrote stay). */
export function teacherValues(): string[] {
  return [UNIQUE_TEACHER.nameAr, UNIQUE_TEACHER.nameEn, UNIQUE_TEACHER.phone, UNIQUE_TEACHER.email];
}

export interface AddedTeacher {
  readonly teacherId: number;
  readonly classId: number;
  readonly studentId: number;
}

/**
 * Adds the teacher to the school in the store: teaching the first class a subject, a note to the
 * class and one about a student of it, their SIS id and kept OneRoster row, an authentication code
 * sent to their phone and a migration example holding their name.
 */
export async function addUniqueTeacher(store: Store): Promise<AddedTeacher> {
  const { db } = store;
  const t = UNIQUE_TEACHER;
  const klass = await db.selectFrom('classes').select('id').orderBy('id').executeTakeFirstOrThrow();
  const subject = await db.selectFrom('subjects').select('id').orderBy('id').executeTakeFirstOrThrow();
  const student = await db
    .selectFrom('student_records')
    .select('student_id')
    .where('class_id', '=', klass.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const noteType = await db.selectFrom('note_types').select('id').executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('teachers')
    .values({ name_ar: t.nameAr, name_en: t.nameEn, phone: t.phone })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('teacher_assignments')
    .values({ teacher_id: id, class_id: klass.id, subject_id: subject.id })
    .execute();
  await db
    .insertInto('class_notes')
    .values({ class_id: klass.id, teacher_id: id, posted_on: '2026-11-21', title: 'Trip', text: t.classNote })
    .execute();
  await db
    .insertInto('student_notes')
    .values({
      student_id: student.student_id,
      note_type_id: noteType.id,
      teacher_id: id,
      written_on: '2026-11-20',
      text: t.studentNote,
    })
    .execute();
  await db
    .insertInto('roster_ids')
    .values({ kind: 'teachers', sourced_id: `tch-${id}`, id, modified_at: null })
    .execute();
  const fields = { sourcedId: `tch-${id}`, givenName: t.nameEn, email: t.email, phone: t.phone, role: 'teacher' };
  await db
    .insertInto('roster_fields')
    .values({ file: 'users.csv', sourced_id: `tch-${id}`, fields: JSON.stringify(fields) })
    .execute();
  const now = '2026-11-20T10:00:00.000Z';
  await db
    .insertInto('outbox_messages')
    .values({
      reference: `sms-teacher-${id}`,
      channel: 'sms',
      recipient: t.phone,
      device_id: null,
      payload: payloadSealer(Buffer.from(TEST_OUTBOX_KEY, 'hex')).seal('Your code is 2468'),
      idempotency_key: null,
      state: 'sent',
      attempts: 1,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: now,
      finished_at: now,
    })
    .execute();
  await db
    .insertInto('shadow_differences')
    .values({
      day: '2026-11-20',
      operation: 'GetStudentsGnote',
      binding: 'json',
      path: 'd.TeacherName',
      noisy: 0,
      count: 1,
      local_example: t.nameEn,
      legacy_example: t.nameAr,
    })
    .execute();
  return { teacherId: id, classId: klass.id, studentId: student.student_id };
}
