import type { Visibility } from '../access/visibility';
import type { OperationPolicy } from '../contract/operation-policies';
import type { Answer } from '../migration/answer';
import { recordsNamedIn } from '../migration/named-records';
import { recordsAsked } from '../operations/record-scope';
import { noneTouched, type TouchedRecords } from './touched-records';

/**
 * The records the audit trail keeps of a call the legacy service answered: the ones the call asked
 * for and, where the operation's answers are audited by the records they show, the ones the legacy
 * answer named, as this service's own answer would have been audited. The caller saw the legacy
 * service's answer, so the trail must know what it showed.
 */
export async function forwardedRecords(
  policy: OperationPolicy,
  parameters: Readonly<Record<string, string | number | null>>,
  visibility: Visibility,
  answer: Answer | undefined,
): Promise<TouchedRecords> {
  const touched = noneTouched();
  await recordsAsked(policy, parameters, visibility, (kind, id) => touched[kind].push(id));
  if (answer !== undefined && answer.status < 400 && policy.audit === 'shown') {
    const named = recordsNamedIn(answer);
    for (const kind of ['student', 'teacher', 'class'] as const) {
      for (const id of named[kind]) touched[kind].push(id);
    }
  }
  return touched;
}
