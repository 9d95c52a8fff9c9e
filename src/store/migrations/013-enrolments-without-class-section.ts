import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/**
 * An enrolment record may have no class section: a student of a bundle that gives none (no
 * homeroom, no section code, no grade) is still enrolled in the year, and served with ClassId nil.
 * SQLite cannot drop a NOT NULL, so its table is rebuilt (foreign keys off meanwhile, as SQLite's
 * ALTER TABLE procedure has it: the tables that point at student_records keep pointing at it by name).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await engine.dropNotNull(db, 'student_records', 'class_id', async () => {
    await sql`create table student_records_rebuilt (
      id integer primary key,
      student_id integer not null references students (id),
      class_id integer references classes (id),
      academic_year_id integer not null references academic_years (id),
      enrolled_on text not null,
      status text not null
    )`.execute(db);
    await sql`insert into student_records_rebuilt (id, student_id, class_id, academic_year_id, enrolled_on, status)
      select id, student_id, class_id, academic_year_id, enrolled_on, status from student_records`.execute(db);
    await sql`drop table student_records`.execute(db);
    await sql`alter table student_records_rebuilt rename to student_records`.execute(db);
    await sql`create index student_records_student on student_records (student_id, academic_year_id)`.execute(db);
    await sql`create index student_records_class on student_records (class_id)`.execute(db);
  });
}
