/**
 * What a caller may see of the school's records. A school-scoped caller sees everything; a
 * teacher sees the classes and subjects they teach and those classes' students; a guardian their
 * children and their children's classes; a student themself and their class.
 */
export type Scope =
  /** A caller that may see no record: one that was not recognised (it may only call HelloWorld). */
  | { readonly kind: 'none' }
  | { readonly kind: 'school' }
  | { readonly kind: 'teacher'; readonly id: number }
  | { readonly kind: 'guardian'; readonly id: number }
  | { readonly kind: 'student'; readonly id: number };

export const SCHOOL_SCOPE: Scope = { kind: 'school' };
export const NO_SCOPE: Scope = { kind: 'none' };

/** A scope as written: school, teacher:ID, guardian:ID or student:ID; undefined when it is none of them. */
export function parseScope(text: string): Scope | undefined {
  if (text === 'school') return SCHOOL_SCOPE;
  const match = /^(teacher|guardian|student):([1-9]\d{0,9})$/.exec(text);
  if (!match || Number(match[2]) > 2147483647) return undefined;
  return { kind: match[1] as 'teacher' | 'guardian' | 'student', id: Number(match[2]) };
}

export function formatScope(scope: Scope): string {
  return scope.kind === 'school' || scope.kind === 'none' ? scope.kind : `${scope.kind}:${scope.id}`;
}
