import type { Identity } from '../access/caller-registry';
import type { AuditTrail } from '../audit/audit-trail';

/** What an audited write touched: the students and classes whose records it wrote. */
export interface WrittenRecords {
  readonly students: readonly number[];
  readonly classes: readonly number[];
}

/** A consumer's write in the audit trail, with its caller and address (`PUT results`, `DELETE lineItems`). */
export function auditWrite(
  parts: { readonly audit: AuditTrail; readonly clock: () => Date },
  who: Identity,
  address: string,
  operation: string,
  written: WrittenRecords,
): void {
  parts.audit.record({
    at: parts.clock(),
    caller: who.name,
    address,
    operation,
    binding: 'oneroster',
    outcome: 'ok',
    students: [...written.students],
    teachers: [],
    classes: [...written.classes],
  });
}
