export { SPEC_ENDPOINTS, SPEC_OPERATIONS } from '../../support/spec-table';

/**
 * "endpoint operation" keys, sorted, so that two lists of calls compare with a readable diff (an
 * operation not found reads "undefined").
 */
export function operationKeys(calls: ReadonlyArray<{ endpoint: string; operation: string | undefined }>): string[] {
  return calls.map(({ endpoint, operation }) => `${endpoint} ${operation}`).sort();
}
