import { GRANTABLE_GROUPS, type OperationGroup, type ProviderGroup } from '../contract/operation-policies';
import { isOperationName } from '../contract/operation-names';
import type { OperationName } from '../contract/operation-types';

/**
 * What a caller was granted: operations by name and whole groups ("queries,AuthCode", "all").
 * Whether it covers a call is asked with the operation's group, which the one asking (the call
 * pipeline) reads from the operation's policy row: access holds no table of operations.
 */
export interface Grants {
  covers(operation: OperationName, group: OperationGroup): boolean;
  /** Whether it grants the OneRoster provider's group (`all` grants both). */
  grantsGroup(group: ProviderGroup): boolean;
}

function isGroup(entry: string): boolean {
  return (GRANTABLE_GROUPS as readonly string[]).includes(entry);
}

/** The grants a list of names and groups gives; throws naming the first entry that is neither. */
export function grantsOf(entries: readonly string[]): Grants {
  const granted = new Set<string>();
  for (const entry of entries) {
    if (isGroup(entry) || isOperationName(entry)) granted.add(entry);
    else throw new Error(`"${entry}" is neither an operation nor a group (${GRANTABLE_GROUPS.join(', ')})`);
  }
  if (granted.has('all')) return { covers: () => true, grantsGroup: () => true };
  return {
    covers: (operation, group) => granted.has(operation) || granted.has(group),
    grantsGroup: (group) => granted.has(group),
  };
}
