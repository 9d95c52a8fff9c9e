import type { Identity } from '../access/caller-registry';
import { NO_SCOPE } from '../access/scope';
import { Visibility } from '../access/visibility';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import { RateLimitReached, RuleViolation } from '../lib/rule-violation';
import type { OperationContext, OperationServices } from '../operations/operation';
import type { Operations } from '../operations/registry';
import { rehearsalSession } from '../store/session';
import type { RequestRecord } from '../telemetry/request-record';
import type { Call, Invocation } from './call';
import type { AuditStage } from './call-audit';
import { CallError, INTERNAL_REASON } from './call-error';
import { noneTouched, type TouchedRecords } from './touched-records';

/** How the handler runs: for the request's record, as a rehearsal, audited or not, with a visibility already read. */
export interface RunOptions {
  readonly record?: RequestRecord;
  /** The store takes back every transaction and nothing is sent. */
  readonly rehearsal?: boolean;
  /** False for a run only to compare: the caller was answered, and audited, by the legacy side. */
  readonly audited?: boolean;
  /** The caller's visibility as the scope stage read it, so that the handler reads nothing twice. */
  readonly visibility?: Visibility;
}

/** A handler as the pipeline calls it, whatever its operation's types. */
type AnyHandler = { handle(parameters: unknown, context: OperationContext): unknown };

/**
 * The invocation stage: the handler runs with what it needs of the call as plain data (the
 * caller's facts, its scope, the store, the settings), and its failures become CallErrors here,
 * once: a rule's refusal keeps its reason, anything unexpected is logged and answered with a
 * generic one. Then the call is handed to the audit stage.
 */
export class InvocationStage {
  constructor(
    private readonly operations: Operations,
    private readonly services: OperationServices,
    private readonly audit: AuditStage,
  ) {}

  /** Runs the handler (as a rehearsal, storing and sending nothing, when asked) and audits the call. */
  async run(call: Call, identity: Identity | undefined, options: RunOptions): Promise<Invocation> {
    const { record, rehearsal = false } = options;
    const name = call.operation.name as OperationName;
    const touched = noneTouched();
    const context = this.contextFor(call, identity, touched, rehearsal, options.visibility);
    // The parameters were decoded by the catalog from the same WSDL the handler's types were
    // generated from (a test keeps the two in step), so they have the shape the handler expects.
    const handler = this.operations[name] as AnyHandler;
    let invocation: Invocation;
    try {
      const handled = handler.handle(call.parameters, context);
      invocation = { ok: true, result: handled instanceof Promise ? await handled : handled };
    } catch (error) {
      if (error instanceof RuleViolation) {
        if (record && error instanceof RateLimitReached) record.outcome = 'rate-limited';
        return { ok: false, error: new CallError('rule', error.message) };
      }
      log.error('operation failed', {
        school: record?.school,
        operation: name,
        error: error instanceof Error ? error.stack : String(error),
      });
      invocation = { ok: false, error: new CallError('internal', INTERNAL_REASON) };
    }
    if (options.audited !== false) this.audit.recordAnswered(call, context, invocation, touched);
    return invocation;
  }

  private contextFor(
    call: Call,
    identity: Identity | undefined,
    touched: TouchedRecords,
    rehearsal: boolean,
    visibility: Visibility | undefined,
  ): OperationContext {
    const { services } = this;
    const now = services.clock();
    const { caller } = call;
    let today: string | undefined;
    // Written out rather than spread: one object of one shape per call, cheap on the hot path.
    return {
      store: rehearsal ? rehearsalSession(services.store) : services.store,
      notificationSettings: services.notificationSettings,
      sealer: services.sealer,
      outboxChanged: rehearsal ? () => {} : services.outboxChanged,
      rehearsal,
      endpointPathOf: services.endpointPathOf,
      siblingSchools: services.siblingSchools,
      call: {
        callerName: identity?.name ?? 'anonymous',
        scope: identity?.scope ?? NO_SCOPE,
        address: caller.address,
        requestBaseUrl: caller.requestBaseUrl,
        federationCredential: caller.federationCredential,
      },
      visibility: visibility ?? new Visibility(services.store, identity?.scope ?? NO_SCOPE),
      touched: (kind, id) => touched[kind].push(id),
      now,
      // Only the calls that read by date need the day; the others do not pay for formatting it.
      get today() {
        today ??= now.toISOString().slice(0, 10);
        return today;
      },
    };
  }
}
