import type { RequestRecord } from '../telemetry/request-record';
import { type Admission, AdmissionStage, type BeforeBody } from './admission';
import type { Binding, Decoded } from './binding';
import type { Call, Invocation } from './call';
import { AuditStage } from './call-audit';
import type { CallRequest } from './call-request';
import { Exchange } from './exchange';
import { InvocationStage } from './invocation';
import type { PipelineParts } from './pipeline-parts';
import type { Served } from './reply';
import { failureReply, invocationReply } from './replies';
import { RouteStage } from './route-stage';

/**
 * The one path every call takes, whatever its binding, in stages: admission before the body (the
 * caller the headers and the path decide), the binding's decode, admission after the body
 * (bounds, the caller, what it may call), the route (a migration's scope check and forwarding),
 * the invocation of the handler and the audit; the binding encodes the result or the error.
 */
export class CallPipeline {
  private readonly admission: AdmissionStage;
  private readonly invocation: InvocationStage;
  /** Undefined without a legacy service or a recording: every call is local. */
  private readonly route: RouteStage | undefined;

  constructor(private readonly parts: PipelineParts) {
    const { operations, services, migration } = parts;
    const audit = new AuditStage(operations, services, parts.audit);
    this.admission = new AdmissionStage(operations, parts.callers);
    this.invocation = new InvocationStage(operations, services, audit);
    this.route = migration && new RouteStage(operations, services, migration, this.invocation, audit);
  }

  /**
   * Runs `send` (which writes a call's answer) once the audit trail holds the call's record where
   * a crash cannot lose it; `fail` instead when it cannot be kept.
   */
  afterAudit(send: () => void, fail: (error: unknown) => void): void {
    this.parts.audit.afterJournal(send, fail);
  }

  /** Whether an answer written now would leave before an audit record: then it goes through `afterAudit`. */
  get auditHoldsAnswers(): boolean {
    return this.parts.audit.holdsAnswers;
  }

  /** The exchange of one request; `record` is what the access log and the figures will learn of it. */
  exchange(request: CallRequest, record: RequestRecord | undefined): Exchange {
    const { settings } = this.parts;
    return new Exchange(request, record, settings.maxBodyBytes, settings);
  }

  /**
   * Serves one request: the reply for the server to write, or HANG_UP when the client went away.
   * What the request was (binding, operation, caller, outcome) goes into the exchange's record.
   */
  async serve<State>(exchange: Exchange, binding: Binding<State>, before: State): Promise<Served> {
    const { record } = exchange;
    if (record) record.binding = binding.nameOf(exchange, before);
    let decoded: Decoded<State>;
    let beforeBody: BeforeBody | undefined;
    try {
      // Awaited even when decided at once: by then node has parsed a body that came in the same
      // packets as the headers, which the binding then takes whole (wire/read-body.ts).
      beforeBody = await this.admission.beforeBody(exchange, binding, before);
      decoded = await binding.decode(exchange, before);
    } catch (error) {
      return failureReply(exchange, binding, before, error);
    }
    const { state } = decoded;
    if (!decoded.ok) return failureReply(exchange, binding, state, decoded.error);
    const { call } = decoded;
    if (record) record.operation = call.operation.name;
    // The same caller, recognised before the body, is not recognised again.
    const recognised = beforeBody?.caller === call.caller ? beforeBody.recognition : undefined;
    const admitting = this.admission.afterBody(call, record, recognised);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (!admission.ok) return failureReply(exchange, binding, state, admission.error);
    const routed = this.route?.serve(exchange, binding, state, call, admission.identity);
    if (routed) return routed;
    const invocation = await this.invocation.run(call, admission.identity, { record });
    return invocationReply(exchange, binding, state, call, invocation);
  }

  /**
   * Recognises the caller, checks that it may call the operation, runs the handler and audits the
   * call, without a request: the call is decoded already. The caller's name, and a rate limit
   * reached, go into `record`.
   */
  async invoke(call: Call, record?: RequestRecord): Promise<Invocation> {
    const admitting: Admission | Promise<Admission> = this.admission.afterBody(call, record);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    return admission.ok ? this.invocation.run(call, admission.identity, { record }) : admission;
  }
}
