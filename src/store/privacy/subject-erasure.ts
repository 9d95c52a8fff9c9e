import { type Kysely, type RawBuilder, sql } from 'kysely';
import { REFERENCE_CHANNEL } from '../migrations/007-reference-versions';
import type { Database } from '../schema';
import { recordErasureTombstones } from '../roster/tombstones';
import { inTransaction, type Session } from '../session';
import type { SubjectKind } from './declaration-types';
import {
  type AnyRows,
  emptiedColumns,
  findSubject,
  keptOnErasure,
  rowsAbout,
  type Subject,
  tablesAbout,
} from './subject-rows';

/** The people an erasure is asked for: a student (with their guardians of no other child) or a teacher. */
export type ErasedKind = Extract<SubjectKind, 'student' | 'teacher'>;

/**
 * What an erasure removes: the person, and, for a student, each guardian who is guardian of no
 * other child.
 */
export interface ErasurePlan {
  readonly subject: Subject;
  readonly guardians: readonly Subject[];
  /** Rows that go, by table, for the person and those guardians together. */
  readonly rows: Readonly<Record<string, number>>;
  /** Rows kept with the person's columns emptied (a teacher's own row), by table. */
  readonly emptied: Readonly<Record<string, number>>;
  /** Rows about the person the school keeps as they are (see the declarations), by table. */
  readonly kept: Readonly<Record<string, number>>;
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
    .filter(([table]) => !keptOnErasure(table, subject.kind))
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

async function countRows(session: Session, table: keyof Database, about: AnyRows, person: Subject): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
    where ${rowsAbout(table, about, person)}`.execute(untyped(session));
  return Number(rows[0]?.n ?? 0);
}

/** What erasing the person would remove, empty and keep; undefined for an unknown person. */
export async function planErasure(
  session: Session,
  kind: ErasedKind,
  id: number,
  defaultCountryCode: string,
): Promise<ErasurePlan | undefined> {
  const subject = await findSubject(session, kind, id, defaultCountryCode);
  if (!subject) return undefined;
  const guardians: Subject[] = [];
  for (const guardianId of kind === 'student' ? await lonelyGuardians(session, id) : []) {
    const guardian = await findSubject(session, 'guardian', guardianId, defaultCountryCode);
    if (guardian) guardians.push(guardian);
  }
  const rows: Record<string, number> = {};
  const emptied: Record<string, number> = {};
  const kept: Record<string, number> = {};
  for (const person of [subject, ...guardians]) {
    for (const [table, about] of tablesAbout(person.kind)) {
      const into = keptOnErasure(table, person.kind)
        ? kept
        : emptiedColumns(table, person.kind).length > 0
          ? emptied
          : rows;
      const count = await countRows(session, table, about, person);
      if (count > 0 || into === rows) into[table] = (into[table] ?? 0) + count;
    }
  }
  return { subject, guardians, rows, emptied, kept };
}

/** Deletes the rows about the person, or empties the person's columns in those the school keeps. */
function eraseStatement(table: keyof Database, about: AnyRows, person: Subject): RawBuilder<unknown> {
  const where = rowsAbout(table, about, person);
  const emptied = emptiedColumns(table, person.kind);
  if (emptied.length === 0) return sql`delete from ${sql.table(table)} where ${where}`;
  const set = sql.join(emptied.map((column) => sql`${sql.ref(column)} = ''`));
  return sql`update ${sql.table(table)} set ${set} where ${where}`;
}

/**
 * Deletes (or empties), in one transaction, every row of the plan, and records the erasure
 * (without the person's data). The store's reference version moves on, so that every process, on
 * every node, drops what it keeps in memory and reads again.
 */
export async function eraseRows(session: Session, plan: ErasurePlan, record: ErasureRecord): Promise<void> {
  await inTransaction(session, async (transaction) => {
    const db = untyped(transaction);
    // Before the ledger's rows go: a delta consumer of the OneRoster provider learns they went.
    const people = plan.guardians.map((guardian) => ({ kind: 'guardians' as const, id: guardian.id }));
    const subject = {
      kind: plan.subject.kind === 'teacher' ? ('teachers' as const) : ('students' as const),
      id: plan.subject.id,
    };
    await recordErasureTombstones(transaction, [subject, ...people], record.at);
    for (const person of [plan.subject, ...plan.guardians]) {
      for (const [table, about] of erasedTables(person)) await eraseStatement(table, about, person).execute(db);
    }
    // An outline saved for the OneRoster provider may name the person (a kept role): worked out again when next read.
    await transaction.db.deleteFrom('roster_outlines').execute();
    await transaction.db
      .insertInto('subject_erasures')
      .values({
        erased_at: record.at,
        kind: plan.subject.kind,
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
