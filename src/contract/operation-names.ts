import { OPERATION_NAMES, type OperationName } from './operation-types';

const NAMES: ReadonlySet<string> = new Set(OPERATION_NAMES);

/** Whether a name an operator or a caller wrote is one of the contract's operations. */
export function isOperationName(name: string): name is OperationName {
  return NAMES.has(name);
}
