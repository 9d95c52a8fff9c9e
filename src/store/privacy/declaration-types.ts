import type { Database } from '../schema';

/** Whose personal data a column or file holds. */
export type Whose = 'student' | 'guardian' | 'teacher' | 'caller';

/** A column that holds personal data: whose, and what it is to them. */
export interface PersonalColumn {
  readonly whose: Whose;
  readonly what: string;
}

/** A column that says nothing about a person (a key, a count, a school's own name for things). */
export const NOT_PERSONAL = 'not personal' as const;

export type ColumnDeclaration = PersonalColumn | typeof NOT_PERSONAL;

export function personal(whose: Whose, what: string): PersonalColumn {
  return { whose, what };
}

/** The people a subject export or erasure is asked about. */
export type SubjectKind = 'student' | 'guardian' | 'teacher';

/**
 * Which rows of a table are about one person: those whose column holds the person's id; those
 * whose column is one of a student's enrolments; or rows found by a rule of their own (see
 * subject-rows.ts): messages sent to the person's number or devices, the SIS's ids and kept fields
 * of their records, the audited calls that showed their records, migration examples holding their
 * values, callers scoped to them.
 */
export type SubjectRows<Row> =
  | { readonly column: keyof Row & string }
  | { readonly enrolment: keyof Row & string }
  | { readonly rule: 'sent-to' | 'roster-ids' | 'roster-fields' | 'audited-calls' | 'examples' | 'scoped-callers' };

/**
 * What a table holds about people, why the service keeps it and for how long. Every column is
 * named, so a column added to the schema without saying whether it is personal does not compile.
 */
export interface TableDeclaration<Row> {
  /** What one row is. */
  readonly holds: string;
  readonly why: string;
  /** For how long a row is kept. */
  readonly kept: string;
  readonly columns: { readonly [Column in keyof Row & string]-?: ColumnDeclaration };
  /** Its rows about one person, by kind of person: what a subject export writes. */
  readonly about?: { readonly [Kind in SubjectKind]?: SubjectRows<Row> };
  /** What an erasure does with the rows about the erased person: deleted unless kept, and why. */
  readonly erasure?: { readonly keep: string };
  /** As `erasure`, for a kind of person whose rows here an erasure treats otherwise. */
  readonly erasureOf?: { readonly [Kind in SubjectKind]?: ErasureRule };
}

/**
 * What an erasure does with a row about the erased person, when it does not delete it: keeps it as
 * it is, or keeps it with the person's own columns emptied (the row's id stays, so that the rows
 * that point at it, which the school must keep, keep a valid reference without the person).
 */
export type ErasureRule = { readonly keep: string } | { readonly empty: string };

/** What erasing a person of this kind does with the table's rows about them; undefined: they are deleted. */
export function erasureRule(
  declaration: Pick<TableDeclaration<never>, 'erasure' | 'erasureOf'>,
  kind: SubjectKind,
): ErasureRule | undefined {
  return declaration.erasureOf?.[kind] ?? declaration.erasure;
}

export type TableDeclarations<Table extends keyof Database> = {
  readonly [Name in Table]-?: TableDeclaration<Database[Name]>;
};

/** A file the service writes and keeps, and what in it is personal. */
export interface KeptFileDeclaration {
  /** Where it lives: a path under DATA_DIR, or the setting that names it. */
  readonly where: string;
  readonly holds: string;
  readonly whose: readonly Whose[];
  readonly why: string;
  readonly kept: string;
  /** What an erasure does about it. */
  readonly onErasure: string;
}
