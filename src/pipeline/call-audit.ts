import type { Identity } from '../access/caller-registry';
import { NO_SCOPE } from '../access/scope';
import { Visibility } from '../access/visibility';
import type { AuditTrail } from '../audit/audit-trail';
import type { OperationName } from '../contract/operation-types';
import type { Answer } from '../migration/answer';
import type { OperationContext, OperationServices } from '../operations/operation';
import type { Operations } from '../operations/registry';
import type { Call, Invocation } from './call';
import { forwardedRecords } from './forwarded-audit';
import { policyOf } from './pipeline-parts';
import { collectTouched, type TouchedRecords } from './touched-records';

/**
 * The audit stage: what the trail keeps of a call, whichever side answered it. A call whose
 * operation's policy row audits nothing is not recorded.
 */
export class AuditStage {
  constructor(
    private readonly operations: Operations,
    private readonly services: OperationServices,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * Records a call this service answered, with every student, teacher and class its result shows
   * or its handler said it touched, when it returned something (data, a document, a delivery
   * reference) or failed. An empty answer showed no one's data, and a call a rule refused (a rate
   * limit, say) did nothing: neither is recorded, so that a flood of probes writes nothing.
   */
  recordAnswered(call: Call, context: OperationContext, invocation: Invocation, touched: TouchedRecords): void {
    const policy = policyOf(this.operations, call.operation.name as OperationName);
    if (policy.audit === 'none') return;
    if (!invocation.ok && invocation.error.kind === 'rule') return;
    let outcome: 'ok' | 'failed' = 'failed';
    if (invocation.ok) {
      const { result } = invocation;
      if (result === undefined || result === 0 || (Array.isArray(result) && result.length === 0)) return;
      outcome = 'ok';
      const typed = call.operation.results.typed;
      if (typed && policy.audit === 'shown') collectTouched(typed.type, result, touched);
    }
    this.record(call, context.now, context.call.callerName, outcome, touched);
  }

  /**
   * Records a call the legacy service answered (`answer` undefined: it did not answer), with the
   * records the call named and those its answer shows.
   */
  async recordForwarded(call: Call, identity: Identity | undefined, answer: Answer | undefined): Promise<void> {
    const policy = policyOf(this.operations, call.operation.name as OperationName);
    if (policy.audit === 'none') return;
    const at = this.services.clock();
    const visibility = new Visibility(this.services.store, identity?.scope ?? NO_SCOPE);
    const touched = await forwardedRecords(policy, call.parameters, visibility, answer);
    const outcome = answer !== undefined && answer.status < 400 ? 'ok' : 'failed';
    this.record(call, at, identity?.name ?? 'anonymous', outcome, touched);
  }

  private record(call: Call, at: Date, caller: string, outcome: 'ok' | 'failed', touched: TouchedRecords): void {
    this.trail.record({
      at,
      caller,
      address: call.caller.address,
      operation: call.operation.name,
      binding: call.caller.binding,
      outcome,
      students: touched.student,
      teachers: touched.teacher,
      classes: touched.class,
    });
  }
}
