import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema';

/**
 * A guardian, a teacher and a pupil of the test school, each with a student and a class it sees
 * and a student and a class it does not, for the tests of scopes on every route.
 */
export interface ScopedView {
  readonly scope: string;
  readonly seenStudent: number;
  readonly unseenStudent: number;
  readonly seenClass: number;
  readonly unseenClass: number;
  /** A student record (enrolment) of the unseen student. */
  readonly unseenRecord: number;
}

export type ScopedCallerKind = 'guardian' | 'teacher' | 'student';

async function classesOf(db: Kysely<Database>, students: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('student_records').select('class_id').where('student_id', 'in', students).execute();
  return rows.map((row) => row.class_id);
}

/** A student enrolled in none of these classes, and their class. */
async function studentOutside(db: Kysely<Database>, classes: readonly number[]) {
  const row = await db
    .selectFrom('student_records')
    .select(['id', 'student_id', 'class_id'])
    .where(
      'student_id',
      'not in',
      db.selectFrom('student_records').select('student_id').where('class_id', 'in', classes),
    )
    .orderBy('student_id')
    .executeTakeFirstOrThrow();
  return { student: row.student_id, class: row.class_id, record: row.id };
}

export async function scopedViews(db: Kysely<Database>): Promise<Record<ScopedCallerKind, ScopedView>> {
  const link = await db
    .selectFrom('student_guardians')
    .select(['guardian_id', 'student_id'])
    .orderBy('guardian_id')
    .executeTakeFirstOrThrow();
  const children = (
    await db.selectFrom('student_guardians').select('student_id').where('guardian_id', '=', link.guardian_id).execute()
  ).map((row) => row.student_id);
  const childClasses = await classesOf(db, children);
  const outsideFamily = await studentOutside(db, childClasses);
  const teacher = await db
    .selectFrom('teacher_assignments')
    .select('teacher_id')
    .where('class_id', '=', childClasses[0])
    .orderBy('teacher_id')
    .executeTakeFirstOrThrow();
  const taught = (
    await db.selectFrom('teacher_assignments').select('class_id').where('teacher_id', '=', teacher.teacher_id).execute()
  ).map((row) => row.class_id);
  const outsideTeaching = await studentOutside(db, taught);
  const pupilClasses = await classesOf(db, [link.student_id]);
  const outsidePupil = await studentOutside(db, pupilClasses);
  return {
    guardian: {
      scope: `guardian:${link.guardian_id}`,
      seenStudent: link.student_id,
      unseenStudent: outsideFamily.student,
      seenClass: childClasses[0],
      unseenClass: outsideFamily.class,
      unseenRecord: outsideFamily.record,
    },
    teacher: {
      scope: `teacher:${teacher.teacher_id}`,
      seenStudent: link.student_id,
      unseenStudent: outsideTeaching.student,
      seenClass: childClasses[0],
      unseenClass: outsideTeaching.class,
      unseenRecord: outsideTeaching.record,
    },
    student: {
      scope: `student:${link.student_id}`,
      seenStudent: link.student_id,
      unseenStudent: outsidePupil.student,
      seenClass: pupilClasses[0],
      unseenClass: outsidePupil.class,
      unseenRecord: outsidePupil.record,
    },
  };
}
