import { type Kysely, sql } from 'kysely';
import { REFERENCE_CHANNEL } from '../migrations/007-reference-versions';
import type { Database } from '../schema';
import { recordErasureTombstones } from '../roster/tombstones';
import { inTransaction, type Session } from '../session';
import { type AnyRows, findSubject, keptOnErasure, rowsAbout, type Subject, tablesAbout } from './subject-rows';

/** What an erasure removes: the student, and each guardian who is guardian of no other child. */
export interface ErasurePlan {
  readonly subject: Subject;
  readonly guardians: readonly Subject[];
  /** Rows that go, by table, for the student and those guardians together. */
  readonly rows: Readonly<Record<string, number>>;
}

export interface ErasureRecord {
  readonly at: string;
  readonly erasedBy: string;
  readonly reason: string;
}

/**
 * Rows are deleted in an order that meets every reference: the SIS's kept fields before the ids
 * that find them, messages and examples (found by the person's values) before the person, rows that
 * point at an enrolment before the enrolment, and the person's own row last.
 */
function erasureRank(rows: AnyRows): number {
  if ('enrolment' in rows) return 3;
  if ('column' in rows) return rows.column === 'id' ? 5 : 4;
  return { 'roster-fields': 0, 'roster-ids': 1, 'sent-to': 2, examples: 2, 'audited-calls': 9, 'scoped-callers': 9 }[
    rows.rule
  ];
}

function erasedTables(subject: Subject): Array<[keyof Database, AnyRows]> {
  return tablesAbout(subject.kind)
    .filter(([table]) => !keptOnErasure(table))
    .sort(([, a], [, b]) => erasureRank(a) - erasureRank(b));
}

function untyped(session: Session): Kysely<unknown> {
  return session.db as unknown as Kysely<unknown>;
}

/** The guardians of a student who are guardian of no other child: they go with the child. */
async function lonelyGuardians(session: Session, studentId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select guardian_id as id from student_guardians g
    where student_id = ${studentId} and not exists (select 1 from student_guardians o
      where o.guardian_id = g.guardian_id and o.student_id <> ${studentId})
    order by guardian_id`.execute(untyped(session));
  return rows.map((row) => Number(row.id));
}

/** What erasing the student would remove; undefined for an unknown student. */
export async function planErasure(
  session: Session,
  studentId: number,
  defaultCountryCode: string,
): Promise<ErasurePlan | undefined> {
  const subject = await findSubject(session, 'student', studentId, defaultCountryCode);
  if (!subject) return undefined;
  const guardians: Subject[] = [];
  for (const id of await lonelyGuardians(session, studentId)) {
    const guardian = await findSubject(session, 'guardian', id, defaultCountryCode);
    if (guardian) guardians.push(guardian);
  }
  const rows: Record<string, number> = {};
  for (const person of [subject, ...guardians]) {
    for (const [table, about] of erasedTables(person)) {
      const { rows: counted } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
        where ${rowsAbout(table, about, person)}`.execute(untyped(session));
      rows[table] = (rows[table] ?? 0) + Number(counted[0]?.n ?? 0);
    }
  }
  return { subject, guardians, rows };
}

/**
 * Deletes, in one transaction, every row of the plan, and records the erasure (without the child's
 * data). The store's reference version moves on, so that every process, on every node, drops what
 * it keeps in memory and reads again.
 */
export async function eraseRows(session: Session, plan: ErasurePlan, record: ErasureRecord): Promise<void> {
  await inTransaction(session, async (transaction) => {
    const db = untyped(transaction);
    // Before the ledger's rows go: a delta consumer of the OneRoster provider learns they went.
    const people = plan.guardians.map((guardian) => ({ kind: 'guardians' as const, id: guardian.id }));
    await recordErasureTombstones(transaction, [{ kind: 'students', id: plan.subject.id }, ...people], record.at);
    for (const person of [plan.subject, ...plan.guardians]) {
      for (const [table, about] of erasedTables(person)) {
        await sql`delete from ${sql.table(table)} where ${rowsAbout(table, about, person)}`.execute(db);
      }
    }
    await transaction.db
      .insertInto('subject_erasures')
      .values({
        erased_at: record.at,
        kind: 'student',
        subject_id: plan.subject.id,
        erased_by: record.erasedBy,
        reason: record.reason,
        guardians_erased: plan.guardians.length,
      })
      .execute();
    await sql`update reference_versions set version = version + 1 where id = 1`.execute(db);
    await transaction.engine.announceReferenceChange(db, REFERENCE_CHANNEL);
  });
}

/** The tables an erasure of this plan deleted from: those whose files must be rewritten. */
export function tablesOf(plan: ErasurePlan): Array<keyof Database> {
  return [...new Set([plan.subject, ...plan.guardians].flatMap((person) => erasedTables(person).map(([t]) => t)))];
}
