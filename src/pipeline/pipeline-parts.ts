import type { CallerRegistry } from '../access/caller-registry';
import type { AuditTrail } from '../audit/audit-trail';
import type { OperationPolicy } from '../contract/operation-policies';
import type { OperationName } from '../contract/operation-types';
import type { OperationServices } from '../operations/operation';
import type { Operations } from '../operations/registry';
import type { PublicAddress } from '../wire/base-url';
import type { MigrationParts } from './routed-call';

export interface PipelineSettings extends PublicAddress {
  readonly maxBodyBytes: number;
}

/** What the pipeline is made of: the operations (row and handler each), what they use, who may call, the audit. */
export interface PipelineParts {
  readonly operations: Operations;
  readonly services: OperationServices;
  readonly settings: PipelineSettings;
  readonly callers: CallerRegistry;
  readonly audit: AuditTrail;
  /** The legacy service and the route of each operation; undefined answers every call here. */
  readonly migration?: MigrationParts;
}

/** The operation's policy row: its group, audit rule, effect and bounds. */
export function policyOf(operations: Operations, name: OperationName): OperationPolicy {
  return operations[name].policy as OperationPolicy;
}
