import type { IncomingMessage } from 'node:http';
import type { CallerRegistry, Identity, Recognition } from '../access/caller-registry';
import { mayCall } from '../access/caller-registry';
import { NO_SCOPE } from '../access/scope';
import { Visibility } from '../access/visibility';
import type { AuditTrail } from '../audit/audit-trail';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import type { NetworkList } from '../lib/networks';
import { RateLimitReached, RuleViolation } from '../lib/rule-violation';
import type { OperationContext, OperationServices } from '../operations/operation';
import { type OperationPolicy, parameterTooLong } from '../contract/operation-policies';
import type { Operations } from '../operations/registry';
import type { RequestRecord } from '../telemetry/request-record';
import type { PublicAddress } from '../wire/base-url';
import type { BindingName, Call, Caller } from './call';
import { CallError, ClientGone, INTERNAL_REASON } from './call-error';
import { Exchange } from './exchange';
import { collectTouched, noneTouched, type TouchedRecords } from './touched-records';
import { rehearsalSession } from '../store/session';
import { type MigrationParts, type RoutedCall, routeOf, serveRouted } from './routed-call';
import type { Route } from '../config/migration-settings';
import type { LegacyRequest } from '../migration/legacy-client';
import type { Answer } from '../migration/answer';
import { HANG_UP, type Reply, reply, type Served } from './reply';
import { recordsInScope } from '../operations/record-scope';
import { forwardedRecords } from './forwarded-audit';
import { withoutCallerCredentials } from '../migration/caller-credentials';

/**
 * A way of calling the service (SOAP 1.1/1.2, HTTP GET/POST, JSON): it decodes a request into a
 * call and encodes what came of it, and does nothing else. `State` is what the binding knows of
 * one request before it is decoded (the SOAP version its Content-Type announced, say).
 */
export interface Binding<State> {
  /** Which binding the request came by, as far as is known before it is decoded. */
  nameOf(exchange: Exchange, state: State): BindingName | undefined;
  /**
   * The operation called, when the binding knows it before the body is read (from the path), so
   * that a caller who may not call it is refused before its body is parsed.
   */
  operationBeforeBody?(state: State): OperationName | undefined;
  /** The call in the request; throws a CallError when there is none to make. */
  decode(exchange: Exchange, state: State): Call | Promise<Call>;
  /** The reply carrying a call's result; it writes nothing (the server does). */
  writeResult(state: State, call: Call, result: unknown): Reply;
  /** The reply carrying an error, in the binding's shape: the one place each kind gets its shape. */
  writeError(state: State, error: CallError): Reply;
}

export type Invocation =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: CallError };

/** How the handler runs: for the request's record, as a rehearsal, audited or not, with a visibility already read. */
interface RunOptions {
  readonly record?: RequestRecord;
  /** The store takes back every transaction and nothing is sent. */
  readonly rehearsal?: boolean;
  /** False for a run only to compare: the caller was answered, and audited, by the legacy side. */
  readonly audited?: boolean;
  /** The caller's visibility as the scope stage read it, so that the handler reads nothing twice. */
  readonly visibility?: Visibility;
}

/** A caller recognised before the body was read, and let go on. */
interface BeforeBody {
  readonly caller: Caller;
  readonly recognition: Recognition;
}

/** Whether a call may go on, and as whom. */
type Admission =
  | { readonly ok: true; readonly identity: Identity | undefined }
  | { readonly ok: false; readonly error: CallError };

export interface PipelineSettings extends PublicAddress {
  readonly maxBodyBytes: number;
  readonly trustedProxies: NetworkList;
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

/** What a caller is told when the legacy service, which answers its operation, did not answer. */
const LEGACY_UNAVAILABLE = 'The legacy service that answers this operation did not answer; try again later.';
const HOW_TO_LET_IN = 'The operator lets callers in with the command school-service callers add.';

/**
 * The request as it came, to be passed to the legacy service or recorded, without the caller's
 * credentials for this service (a SOAP body's Security header; headers are passed on by name).
 */
function passable(exchange: Exchange, call: Call): LegacyRequest {
  const { request } = exchange;
  const { binding } = call.caller;
  const soap = binding === 'soap11' || binding === 'soap12';
  const clean = soap ? withoutCallerCredentials(exchange.bodyAsRead, request.headers['content-type']) : undefined;
  return {
    method: request.method === 'GET' ? 'GET' : 'POST',
    target: request.url ?? '/',
    headers: clean ? { ...request.headers, 'content-type': clean.contentType } : request.headers,
    body: clean ? clean.body : exchange.bodyAsRead,
    callerAddress: call.caller.address,
  };
}

/**
 * The one path every call takes, whatever its binding: the body is read within the limits, the
 * binding decodes the call, the caller is recognised and what it may call checked, the handler
 * runs with what it needs of the call as plain data, the call is audited, and the binding encodes
 * the result or the error. Failures become CallErrors here, once: a rule's refusal keeps its
 * reason, anything unexpected is logged and answered with a generic one.
 */
export class CallPipeline {
  constructor(private readonly parts: PipelineParts) {}

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
  exchange(request: IncomingMessage, record: RequestRecord | undefined): Exchange {
    const { settings } = this.parts;
    return new Exchange(request, record, settings.maxBodyBytes, settings, settings.trustedProxies);
  }

  /**
   * Serves one request: the reply for the server to write, or HANG_UP when the client went away.
   * What the request was (binding, operation, caller, outcome) goes into the exchange's record.
   */
  async serve<State>(exchange: Exchange, binding: Binding<State>, state: State): Promise<Served> {
    const { record } = exchange;
    if (record) record.binding = binding.nameOf(exchange, state);
    let call: Call;
    let beforeBody: BeforeBody | undefined;
    try {
      // Awaited even when decided at once: by then node has parsed a body that came in the same
      // packets as the headers, which the binding then takes whole (wire/read-body.ts).
      beforeBody = await this.decideBeforeBody(exchange, binding, state);
      call = await binding.decode(exchange, state);
    } catch (error) {
      return this.fail(exchange, binding, state, error);
    }
    if (record) record.operation = call.operation.name;
    // The same caller, recognised before the body, is not recognised again.
    const admitting = this.admit(call, record, beforeBody?.caller === call.caller ? beforeBody.recognition : undefined);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (!admission.ok) return this.fail(exchange, binding, state, admission.error);
    const { migration } = this.parts;
    migration?.recorder?.record(call.operation.name, call.caller.binding, passable(exchange, call), this.clock());
    const route = routeOf(migration, call.operation.name as OperationName);
    if (route !== 'local' && migration) {
      return this.serveInScope(route, migration, exchange, binding, state, call, admission.identity);
    }
    const invocation = await this.run(call, admission.identity, { record });
    return this.answer(exchange, binding, state, call, invocation);
  }

  /**
   * The scope stage of a call on a route other than local: the records the call names are checked
   * against the caller's scope before anything of it leaves. One the caller may not see (or that
   * this store does not hold) is answered here by the handler, as a local call for an unknown
   * record is, with the visibility already read (a write rehearsed where this service does not
   * act); the legacy service never hears of it.
   */
  private async serveInScope<State>(
    route: Exclude<Route, 'local'>,
    migration: MigrationParts,
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    identity: Identity | undefined,
  ): Promise<Served> {
    const policy = this.policyOf(call.operation.name as OperationName);
    const { store } = this.parts.services;
    const visibility = new Visibility(store, identity?.scope ?? NO_SCOPE);
    if (await recordsInScope(policy, call.parameters, visibility, store)) {
      return this.serveOnRoute(route, migration, exchange, binding, state, call, identity);
    }
    const rehearsal = route !== 'canary' && policy.effect === 'sends';
    const invocation = await this.run(call, identity, { record: exchange.record, rehearsal, visibility });
    return this.answer(exchange, binding, state, call, invocation);
  }

  /**
   * Serves a call on a route other than local. The route answers the caller before it compares
   * the answers, so the reply is handed on as soon as there is one; what the route does after
   * it is its own (a failure then is logged: the caller has its answer).
   */
  private serveOnRoute<State>(
    route: Exclude<Route, 'local'>,
    migration: MigrationParts,
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    identity: Identity | undefined,
  ): Promise<Served> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const answer = (served: Served) => {
        answered = true;
        resolve(served);
      };
      serveRouted(route, migration, this.routedCall(exchange, binding, state, call, identity, answer)).then(
        () => {
          if (!answered) resolve(HANG_UP);
        },
        (error: unknown) => {
          if (!answered) reject(error);
          else log.error('routed call failed', { error: error instanceof Error ? error.stack : String(error) });
        },
      );
    });
  }

  /** The reply to the caller with what came of the handler, in the binding's shape. */
  private answer<State>(
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    invocation: Invocation,
  ): Served {
    const { record } = exchange;
    if (!invocation.ok) return this.fail(exchange, binding, state, invocation.error);
    try {
      const answer = binding.writeResult(state, call, invocation.result);
      if (record) record.outcome = 'ok';
      return answer;
    } catch (error) {
      return this.fail(exchange, binding, state, error);
    }
  }

  /**
   * Refuses, before a byte of the body is parsed, a caller that can be decided without it: one
   * whose Authorization header (Basic, or Bearer) is not accepted, and, where the binding knows the
   * operation from the path, one whose address or header does not let it call that operation. A
   * flood of bodies from such callers then costs no parsing. SOAP without an Authorization header
   * is left to the body, which may carry a UsernameToken.
   */
  private decideBeforeBody<State>(
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
  ): BeforeBody | undefined | Promise<BeforeBody> {
    const bindingName = binding.nameOf(exchange, state);
    if (bindingName === undefined) return undefined;
    const operation = binding.operationBeforeBody?.(state);
    // Nothing to decide yet (SOAP without an Authorization header): no caller to describe, no promise.
    if (operation === undefined && !exchange.request.headers.authorization) return undefined;
    const caller = exchange.caller(bindingName);
    if (caller.credentials === undefined && operation === undefined) return undefined;
    const recognising = this.parts.callers.recognise(caller.address, caller.credentials);
    return recognising instanceof Promise
      ? recognising.then((recognition) => this.decideOnRecognition(exchange, caller, operation, recognition))
      : this.decideOnRecognition(exchange, caller, operation, recognising);
  }

  /** Throws the refusal of a caller that may not go on; else what was learnt of it, for the admission. */
  private decideOnRecognition(
    exchange: Exchange,
    caller: Caller,
    operation: OperationName | undefined,
    recognition: Recognition,
  ): BeforeBody {
    const identity = recognition.kind === 'identified' ? recognition.identity : undefined;
    if (recognition.kind === 'refused' || (operation !== undefined && !this.mayCall(identity, operation))) {
      if (exchange.record && operation !== undefined) exchange.record.operation = operation;
      throw this.refusal(caller, operation, recognition);
    }
    return { caller, recognition };
  }

  /**
   * Recognises the caller, checks that it may call the operation, runs the handler and audits the
   * call. The caller's name, and a rate limit reached, go into `record`.
   */
  async invoke(call: Call, record?: RequestRecord): Promise<Invocation> {
    const admitting = this.admit(call, record);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    return admission.ok ? this.run(call, admission.identity, { record }) : admission;
  }

  /**
   * Checks the parameters' bounds, recognises the caller and checks that it may call the operation.
   * Most callers are recognised from memory: a promise only when recognising needs one spares the
   * call a turn of the queue.
   */
  private admit(call: Call, record?: RequestRecord, recognised?: Recognition): Admission | Promise<Admission> {
    const name = call.operation.name as OperationName;
    const tooLong = parameterTooLong(this.policyOf(name), call.parameters);
    if (tooLong) {
      const message = `${tooLong.name} must be at most ${tooLong.limit} characters long.`;
      return { ok: false, error: new CallError('rule', message) };
    }
    if (recognised) return this.decide(call, name, recognised, record);
    const recognising = this.parts.callers.recognise(call.caller.address, call.caller.credentials);
    return recognising instanceof Promise
      ? recognising.then((recognition) => this.decide(call, name, recognition, record))
      : this.decide(call, name, recognising, record);
  }

  private decide(call: Call, name: OperationName, recognition: Recognition, record?: RequestRecord): Admission {
    const identity = recognition.kind === 'identified' ? recognition.identity : undefined;
    if (record && recognition.kind !== 'refused') record.caller = identity?.name ?? 'anonymous';
    if (!this.mayCall(identity, name)) return { ok: false, error: this.refusal(call.caller, name, recognition) };
    return { ok: true, identity };
  }

  /** Runs the handler (as a rehearsal, storing and sending nothing, when asked) and audits the call. */
  private async run(call: Call, identity: Identity | undefined, options: RunOptions): Promise<Invocation> {
    const { record, rehearsal = false } = options;
    const name = call.operation.name as OperationName;
    const touched = noneTouched();
    const context = this.contextFor(call, identity, touched, rehearsal, options.visibility);
    // The parameters were decoded by the catalog from the same WSDL the handler's types were
    // generated from (a test keeps the two in step), so they have the shape the handler expects.
    const handler = this.parts.operations[name] as { handle(parameters: unknown, context: OperationContext): unknown };
    let invocation: Invocation;
    try {
      const handled = handler.handle(call.parameters, context);
      invocation = { ok: true, result: handled instanceof Promise ? await handled : handled };
    } catch (error) {
      if (error instanceof RuleViolation) {
        if (record && error instanceof RateLimitReached) record.outcome = 'rate-limited';
        return { ok: false, error: new CallError('rule', error.message) };
      }
      log.error('operation failed', { operation: name, error: error instanceof Error ? error.stack : String(error) });
      invocation = { ok: false, error: new CallError('internal', INTERNAL_REASON) };
    }
    if (this.policyOf(name).audit !== 'none' && options.audited !== false)
      this.audit(call, context, invocation, touched);
    return invocation;
  }

  /**
   * Refuses a call the caller may not make, in the log with its address and never with a secret.
   * Where credentials could let it in, the answer is a challenge (401); else a plain refusal.
   */
  private refusal(caller: Caller, name: OperationName | undefined, recognition: Recognition): CallError {
    const { address, binding } = caller;
    const callerName = recognition.kind === 'identified' ? recognition.identity.name : undefined;
    const reason =
      recognition.kind === 'refused'
        ? recognition.reason
        : recognition.kind === 'anonymous'
          ? 'no credentials'
          : 'operation not granted';
    log.warn('call refused', { address, operation: name, binding, caller: callerName, reason });
    if (recognition.kind === 'refused') {
      return new CallError('unauthenticated', `Access denied: the credentials were not accepted. ${HOW_TO_LET_IN}`);
    }
    const anonymous = recognition.kind === 'anonymous' && name !== undefined;
    if (anonymous && this.parts.callers.credentialCouldHelp(name, this.policyOf(name).group)) {
      return new CallError('unauthenticated', `Access denied: ${name} needs a caller's credentials. ${HOW_TO_LET_IN}`);
    }
    const who = callerName === undefined ? address : `caller ${callerName}`;
    return new CallError('forbidden', `Access denied: ${who} may not call ${name}. ${HOW_TO_LET_IN}`);
  }

  private contextFor(
    call: Call,
    identity: Identity | undefined,
    touched: TouchedRecords,
    rehearsal: boolean,
    visibility: Visibility | undefined,
  ): OperationContext {
    const { services } = this.parts;
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

  /**
   * Records the call in the audit trail, with every student, teacher and class its result shows
   * or its handler said it touched, when it returned something (data, a document, a delivery
   * reference) or failed. An empty answer showed no one's data, and a call a rule refused (a rate
   * limit, say) did nothing: neither is recorded, so that a flood of probes writes nothing.
   */
  private audit(call: Call, context: OperationContext, invocation: Invocation, touched: TouchedRecords): void {
    if (!invocation.ok && invocation.error.kind === 'rule') return;
    let outcome: 'ok' | 'failed' = 'failed';
    if (invocation.ok) {
      const { result } = invocation;
      if (result === undefined || result === 0 || (Array.isArray(result) && result.length === 0)) return;
      outcome = 'ok';
      const typed = call.operation.results.typed;
      const fromResult = this.policyOf(call.operation.name as OperationName).audit === 'shown';
      if (typed && fromResult) collectTouched(typed.type, result, touched);
    }
    this.parts.audit.record({
      at: context.now,
      caller: context.call.callerName,
      address: call.caller.address,
      operation: call.operation.name,
      binding: call.caller.binding,
      outcome,
      students: touched.student,
      teachers: touched.teacher,
      classes: touched.class,
    });
  }

  /**
   * The call as its route needs it: the request to pass on, and how to run, answer and capture it
   * here; `deliver` takes the caller's reply, whichever side gave it.
   */
  private routedCall<State>(
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    identity: Identity | undefined,
    deliver: (served: Served) => void,
  ): RoutedCall {
    const { record } = exchange;
    return {
      operation: call.operation.name as OperationName,
      sends: this.policyOf(call.operation.name as OperationName).effect === 'sends',
      binding: call.caller.binding,
      caller: identity?.name,
      request: passable(exchange, call),
      // A run only to compare comes after the caller was answered (the request's record is closed by
      // then), by the legacy side, whose answer the trail keeps.
      runLocal: (purpose, rehearsal) =>
        purpose === 'answer'
          ? this.run(call, identity, { record, rehearsal })
          : this.run(call, identity, { rehearsal, audited: false }),
      answer: (invocation) => deliver(this.answer(exchange, binding, state, call, invocation)),
      capture: (invocation) => answerOf(this.replyTo(binding, state, call, invocation)),
      pass: (answer) => {
        if (record) record.outcome = answer.status < 400 ? 'ok' : 'legacy-fault';
        deliver(passedOn(answer));
      },
      unavailable: (reason) => {
        log.warn('legacy service unavailable', { operation: call.operation.name, reason });
        if (record) record.outcome = 'legacy-unavailable';
        deliver(this.fail(exchange, binding, state, new CallError('internal', LEGACY_UNAVAILABLE)));
      },
      busy: (reason) => {
        log.warn('legacy calls in flight at their bound', { operation: call.operation.name });
        deliver(this.fail(exchange, binding, state, new CallError('rule', reason)));
      },
      auditForwarded: async (answer) => {
        const policy = this.policyOf(call.operation.name as OperationName);
        if (policy.audit === 'none') return;
        const at = this.clock();
        const visibility = new Visibility(this.parts.services.store, identity?.scope ?? NO_SCOPE);
        const touched = await forwardedRecords(policy, call.parameters, visibility, answer);
        this.parts.audit.record({
          at,
          caller: identity?.name ?? 'anonymous',
          address: call.caller.address,
          operation: call.operation.name,
          binding: call.caller.binding,
          outcome: answer !== undefined && answer.status < 400 ? 'ok' : 'failed',
          students: touched.student,
          teachers: touched.teacher,
          classes: touched.class,
        });
      },
    };
  }

  private clock(): Date {
    return this.parts.services.clock();
  }

  /** The operation's policy row: its group, audit rule, effect and bounds. */
  private policyOf(name: OperationName): OperationPolicy {
    return this.parts.operations[name].policy as OperationPolicy;
  }

  /** Whether the identity may call the operation, by its name and its policy row's group. */
  private mayCall(identity: Identity | undefined, name: OperationName): boolean {
    return mayCall(identity, name, this.policyOf(name).group);
  }

  /** This service's reply to a call, as the binding shapes it, for no one: a shadow's answer, to compare. */
  private replyTo<State>(binding: Binding<State>, state: State, call: Call, invocation: Invocation): Reply {
    try {
      if (invocation.ok) return binding.writeResult(state, call, invocation.result);
    } catch (error) {
      log.error('request failed', { error: error instanceof Error ? error.stack : String(error) });
      return binding.writeError(state, new CallError('internal', INTERNAL_REASON));
    }
    return binding.writeError(state, invocation.error);
  }

  /**
   * The reply to a call that failed, in the binding's shape; HANG_UP when the client went away.
   * Whether the connection must close, and whether the caller is challenged, the server learns
   * from the reply: the headers that say so are the server's.
   */
  private fail<State>(exchange: Exchange, binding: Binding<State>, state: State, error: unknown): Served {
    const { record } = exchange;
    if (error instanceof ClientGone) {
      if (record) record.outcome ??= 'client-gone';
      return HANG_UP;
    }
    let callError: CallError;
    if (error instanceof CallError) {
      callError = error;
    } else {
      log.error('request failed', {
        url: exchange.request.url,
        error: error instanceof Error ? error.stack : String(error),
      });
      callError = new CallError('internal', INTERNAL_REASON);
    }
    if (record) record.outcome ??= callError.kind;
    const answer = binding.writeError(state, callError);
    answer.closeConnection = exchange.bodyLeftUnread;
    answer.challenge = callError.kind === 'unauthenticated';
    return answer;
  }
}

/** A reply as the comparison of answers reads it: its status, its headers by lower-case name, its bytes. */
function answerOf({ status, contentType, body, headers }: Reply): Answer {
  const named: Record<string, string> = {};
  for (const name in headers) named[name.toLowerCase()] = headers[name];
  if (contentType !== undefined) named['content-type'] = contentType;
  return { status, headers: named, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body };
}

/** The legacy service's answer, passed on to the caller unchanged. */
function passedOn(answer: Answer): Reply {
  return reply(answer.status, undefined, answer.body, answer.headers);
}
