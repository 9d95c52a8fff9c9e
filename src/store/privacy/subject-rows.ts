import { type Kysely, type RawBuilder, sql } from 'kysely';
import { phoneNumberE164 } from '../../lib/phone-number';
import type { Database } from '../schema';
import type { Session } from '../session';
import { erasureRule, type SubjectKind, type SubjectRows, type TableDeclaration } from './declaration-types';
import { PERSONAL_DATA } from './declarations';

/** The person asked about, and what finds their rows beyond their id: their numbers and their values. */
export interface Subject {
  readonly kind: SubjectKind;
  readonly id: number;
  /** Their phone numbers as stored and in E.164, and their devices' push tokens: where messages went. */
  readonly recipients: readonly string[];
  /** Their names, birth date and phone number, as text that a kept example could hold. */
  readonly values: readonly string[];
}

const PEOPLE_TABLES = { student: 'students', guardian: 'guardians', teacher: 'teachers' } as const;

/** Shorter values (a gender, a short name) would match examples that are about nobody. */
const SHORTEST_SEARCHED_VALUE = 4;

/** Rows of any table, found by a declaration's rule rather than by a typed query. */
export type AnyRows = SubjectRows<Record<string, unknown>>;
type AnyDeclaration = TableDeclaration<Record<string, unknown>>;

function untyped(session: Session): Kysely<unknown> {
  return session.db as unknown as Kysely<unknown>;
}

function declarations(): Array<[keyof Database, AnyDeclaration]> {
  return Object.entries(PERSONAL_DATA) as unknown as Array<[keyof Database, AnyDeclaration]>;
}

/** The person, with their numbers and values; undefined when the store has no such person. */
export async function findSubject(
  session: Session,
  kind: SubjectKind,
  id: number,
  defaultCountryCode: string,
): Promise<Subject | undefined> {
  const db = untyped(session);
  const { rows: people } = await sql<Record<string, unknown>>`select * from ${sql.table(PEOPLE_TABLES[kind])}
    where id = ${id}`.execute(db);
  const person = people[0];
  if (!person || emptiedByErasure(kind, person)) return undefined;
  const phone = typeof person.phone === 'string' && person.phone !== '' ? person.phone : undefined;
  const tokens =
    kind === 'guardian'
      ? (
          await sql<{ token: string }>`select push_token as token from devices where guardian_id = ${id}`.execute(db)
        ).rows.map((row) => row.token)
      : [];
  const e164 = phone === undefined ? undefined : phoneNumberE164(phone, defaultCountryCode);
  const recipients = [...new Set([phone, e164, ...tokens].filter((text): text is string => text !== undefined))];
  const values = [person.name_ar, person.name_en, person.birth_date, phone, e164].filter(
    (text): text is string => typeof text === 'string' && text.length >= SHORTEST_SEARCHED_VALUE,
  );
  return { kind, id, recipients, values: [...new Set(values)] };
}

/**
 * Whether the person's row is one an erasure kept with their columns emptied (a teacher's): it
 * holds nobody any more, so the person is unknown, as an erased student is.
 */
function emptiedByErasure(kind: SubjectKind, person: Record<string, unknown>): boolean {
  const table = PEOPLE_TABLES[kind];
  const columns = emptiedColumns(table, kind);
  return columns.length > 0 && columns.every((column) => person[column] === '' || person[column] === null);
}

function escapedLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function anyOf(conditions: readonly RawBuilder<unknown>[]): RawBuilder<unknown> {
  return conditions.length === 0 ? sql`1 = 0` : sql`(${sql.join(conditions, sql` or `)})`;
}

/**
 * The tables with a column-linked or enrolment-linked id, whose records the SIS may have given an
 * id, leaving out those an erasure of this kind of person keeps as they are (a teacher's class
 * notes): their ids are the school's, which a later import or sync must still find.
 */
function recordTables(kind: SubjectKind): Array<[table: string, rows: AnyRows]> {
  return declarations().flatMap(([table, declaration]) => {
    const rows = declaration.about?.[kind];
    const record = rows && !('rule' in rows) && 'id' in declaration.columns;
    return record && !keptOnErasure(table, kind) ? [[table, rows]] : [];
  });
}

/** The condition that picks a table's rows about the subject. */
export function rowsAbout(table: string, rows: AnyRows, subject: Subject): RawBuilder<unknown> {
  if ('column' in rows) return sql`${sql.ref(rows.column)} = ${subject.id}`;
  if ('enrolment' in rows)
    return sql`${sql.ref(rows.enrolment)} in (select id from student_records where student_id = ${subject.id})`;
  switch (rows.rule) {
    case 'sent-to': {
      const devices =
        subject.kind === 'guardian'
          ? [sql`device_id in (select id from devices where guardian_id = ${subject.id})`]
          : [];
      return anyOf([...subject.recipients.map((recipient) => sql`recipient = ${recipient}`), ...devices]);
    }
    case 'roster-ids':
      return anyOf(
        recordTables(subject.kind).map(
          ([kind, linked]) => sql`(kind = ${kind} and id in
            (select id from ${sql.table(kind)} where ${rowsAbout(kind, linked, subject)}))`,
        ),
      );
    case 'roster-fields':
      return sql`sourced_id in (select sourced_id from roster_ids
        where ${rowsAbout('roster_ids', { rule: 'roster-ids' }, subject)})`;
    case 'audited-calls':
      return table === 'audit_subjects'
        ? sql`kind = 'student' and subject_id = ${subject.id}`
        : sql`id in (select event_id from audit_subjects where kind = 'student' and subject_id = ${subject.id})`;
    case 'examples':
      return anyOf(
        subject.values.flatMap((value) => [
          sql`local_example like ${escapedLike(value)} escape '\\'`,
          sql`legacy_example like ${escapedLike(value)} escape '\\'`,
        ]),
      );
    case 'scoped-callers':
      return sql`scope = ${`${subject.kind}:${subject.id}`}`;
  }
}

/** The tables with rows about this kind of person, with how they are found. */
export function tablesAbout(kind: SubjectKind): Array<[table: keyof Database, rows: AnyRows]> {
  return declarations().flatMap(([table, declaration]) => {
    const rows = declaration.about?.[kind];
    return rows ? [[table, rows]] : [];
  });
}

/** Whether an erasure of this kind of person keeps the table's rows about them as they are. */
export function keptOnErasure(table: keyof Database, kind: SubjectKind): boolean {
  const rule = erasureRule(PERSONAL_DATA[table] as AnyDeclaration, kind);
  return rule !== undefined && 'keep' in rule;
}

/**
 * The columns an erasure of this kind of person empties in the table's rows about them, keeping
 * the rows (the person's own personal columns); none when it deletes the rows or keeps them whole.
 */
export function emptiedColumns(table: keyof Database, kind: SubjectKind): string[] {
  const declaration = PERSONAL_DATA[table] as AnyDeclaration;
  const rule = erasureRule(declaration, kind);
  if (rule === undefined || !('empty' in rule)) return [];
  return Object.entries(declaration.columns).flatMap(([column, declared]) =>
    typeof declared !== 'string' && declared.whose === kind ? [column] : [],
  );
}

/** Every row of `table` about the subject, as the store holds it. */
export async function subjectRows(
  session: Session,
  table: keyof Database,
  rows: AnyRows,
  subject: Subject,
): Promise<Array<Record<string, unknown>>> {
  const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where ${rowsAbout(
    table,
    rows,
    subject,
  )}`.execute(untyped(session));
  return found;
}

/** The school's name in its two languages, for the export's PDF. */
export async function schoolName(session: Session): Promise<{ nameAr: string; nameEn: string }> {
  const school = await session.db.selectFrom('schools').select(['name_ar', 'name_en']).orderBy('id').executeTakeFirst();
  return { nameAr: school?.name_ar ?? '', nameEn: school?.name_en ?? '' };
}
