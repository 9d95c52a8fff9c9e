import type { SubjectKind } from '../store/privacy/declaration-types';
import { UsageError } from './usage-error';

export interface SubjectOptions {
  readonly student?: number;
  readonly guardian?: number;
  readonly teacher?: number;
}

/** The one person the command is about: exactly one of --student, --guardian and --teacher. */
export function subjectOf(options: SubjectOptions): { kind: SubjectKind; id: number } {
  const named = (['student', 'guardian', 'teacher'] as const).flatMap((kind) => {
    const id = options[kind];
    return id === undefined ? [] : [{ kind, id }];
  });
  if (named.length !== 1) throw new UsageError('name one person: --student ID, --guardian ID or --teacher ID');
  return named[0] as { kind: SubjectKind; id: number };
}

/** An unknown person is wrong usage (exit 2): nothing is written. */
export function unknownSubject(kind: SubjectKind, id: number): UsageError {
  return new UsageError(`there is no ${kind} ${id} in the store`);
}
