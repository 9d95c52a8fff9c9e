import type { OperationName, OperationTypes } from './operation-types';

/**
 * What the service holds of an operation beyond its WSDL: who may call it, whether and how a call
 * is audited, what it does besides answering, and the bound of each text parameter. Each
 * operation declares its row with its handler (`defineOperation` in src/operations/); the types
 * live here, beside the contract's, so that the layers below the operations can name a group or
 * an effect without reading the rows, which the entry layer and the pipeline pass them.
 */

/** The groups a caller's operations may be given by; `public` is everybody's and cannot be granted. */
export type OperationGroup = 'public' | 'queries' | 'documents' | 'notifications' | 'auth-code';

/**
 * The groups of the OneRoster provider's records rather than of operations: `roster` reads the
 * rostering collections, `gradebook` reads and writes the gradebook's (docs/oneroster-provider.md).
 */
export type ProviderGroup = 'roster' | 'gradebook';

export const GRANTABLE_GROUPS = [
  'queries',
  'documents',
  'notifications',
  'auth-code',
  'roster',
  'gradebook',
  'all',
] as const;

/**
 * Which records the audit trail keeps of a call: `none` (the answer shows nothing personal);
 * `shown`, the students, teachers and classes the answer shows; `class`, only the class the handler
 * names, for a class's attendance, whose thirty students would cost thirty rows a call (found for a
 * student through their enrolment in it).
 */
export type AuditRule = 'none' | 'shown' | 'class';

/**
 * What a call does besides answering: `reads` nothing more; `sends` queues a message (or forwards
 * one to a partner school). A call that sends must be acted on by one service only, whichever of
 * two answers it (see the migration routes).
 */
export type SideEffect = 'reads' | 'sends';

/** A bound for every text parameter of the operation: a new one without a bound does not compile. */
export type TextParameterBounds<Name extends OperationName> = {
  [Parameter in keyof OperationTypes[Name]['parameters'] as OperationTypes[Name]['parameters'][Parameter] extends number
    ? never
    : Parameter]: number;
};

/**
 * The kind of record an identifier parameter names. Before a call of a caller whose scope is not
 * the school's leaves for the legacy service, each named record is checked against the scope by
 * the rules the handler applies (src/operations/record-scope.ts holds one check per kind):
 *
 * - `student`, `enrolment` (a student record id), `class`, `exam`: a record the caller sees;
 * - `notified-class`: a class whose guardians the caller may notify (the school, its teachers);
 * - `own-teacher`: the teacher the caller is (a teacher's own lists);
 * - `class-teacher`: for a teacher, themself; others are bounded by the call's class;
 * - `subject-of-student`: a subject whose marks the caller sees for the call's `student`;
 * - `application` and `device`: a push device, by its application, of a guardian the caller reaches.
 */
export type RecordKind =
  | 'student'
  | 'enrolment'
  | 'class'
  | 'notified-class'
  | 'own-teacher'
  | 'class-teacher'
  | 'exam'
  | 'subject-of-student'
  | 'application'
  | 'device';

/** The parameters of an operation that name a record, with the kind each names. */
export type RecordParameters<Name extends OperationName> = {
  readonly [Parameter in keyof OperationTypes[Name]['parameters']]?: RecordKind;
};

export interface OperationPolicy<Name extends OperationName = OperationName> {
  readonly group: OperationGroup;
  readonly audit: AuditRule;
  readonly effect: SideEffect;
  /**
   * The longest text, in characters, each string parameter may carry; a longer one is refused
   * before the operation runs, so that nothing oversized is stored or forwarded (ints bound themselves).
   */
  readonly bounds: TextParameterBounds<Name>;
  /**
   * The parameters that name a record, checked against a scoped caller's scope before the call is
   * forwarded (an operation naming none declares `{}`); the handler checks them again itself.
   */
  readonly records: RecordParameters<Name>;
}

/** The first parameter longer than its bound, with the bound; undefined when every one fits. */
export function parameterTooLong(
  policy: OperationPolicy,
  parameters: Readonly<Record<string, string | number | null>>,
): { name: string; limit: number } | undefined {
  const bounds = policy.bounds as Readonly<Record<string, number>>;
  for (const name in bounds) {
    const value = parameters[name];
    if (typeof value !== 'string' || value.length <= bounds[name]) continue;
    // Length in characters: a UTF-16 string holds at most twice as many units as characters.
    if (value.length > 2 * bounds[name] || [...value].length > bounds[name]) return { name, limit: bounds[name] };
  }
  return undefined;
}
