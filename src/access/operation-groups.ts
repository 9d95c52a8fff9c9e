import { GRANTABLE_GROUPS, OPERATION_NAMES, OPERATION_POLICIES } from '../contract/operation-policies';
import type { OperationName } from '../contract/operation-types';

/**
 * The operations a list of names and groups grants ("queries,AuthCode", "all"), by the groups of
 * the operations' policies; throws naming the first entry that is neither an operation nor a group.
 */
export function grantedOperations(entries: readonly string[]): Set<OperationName> {
  const granted = new Set<OperationName>();
  for (const entry of entries) {
    if (entry === 'all') {
      for (const name of OPERATION_NAMES) granted.add(name);
    } else if ((GRANTABLE_GROUPS as readonly string[]).includes(entry)) {
      for (const name of OPERATION_NAMES) if (OPERATION_POLICIES[name].group === entry) granted.add(name);
    } else if (Object.hasOwn(OPERATION_POLICIES, entry)) {
      granted.add(entry as OperationName);
    } else {
      throw new Error(`"${entry}" is neither an operation nor a group (${GRANTABLE_GROUPS.join(', ')})`);
    }
  }
  return granted;
}
