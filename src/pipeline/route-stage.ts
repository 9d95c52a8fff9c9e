import type { Identity } from '../access/caller-registry';
import { NO_SCOPE } from '../access/scope';
import { Visibility } from '../access/visibility';
import type { Route } from '../config/migration-settings';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import type { Answer } from '../migration/answer';
import { withoutCallerCredentials } from '../migration/caller-credentials';
import type { LegacyRequest } from '../migration/legacy-client';
import type { OperationServices } from '../operations/operation';
import { recordsInScope } from '../operations/record-scope';
import type { Operations } from '../operations/registry';
import type { Binding } from './binding';
import type { Call } from './call';
import type { AuditStage } from './call-audit';
import { CallError } from './call-error';
import type { Exchange } from './exchange';
import type { InvocationStage } from './invocation';
import { policyOf } from './pipeline-parts';
import { HANG_UP, type Reply, reply, type Served } from './reply';
import { failureReply, invocationReply, unsentReply } from './replies';
import { type MigrationParts, type RoutedCall, routeOf, serveRouted } from './routed-call';

/** What a caller is told when the legacy service, which answers its operation, did not answer. */
const LEGACY_UNAVAILABLE = 'The legacy service that answers this operation did not answer; try again later.';

/**
 * The route stage, for a service with a legacy service beside it: an admitted call is recorded
 * for a replay (when recording), its operation's route looked up, and on a route other than local
 * the records it names are checked against the caller's scope before anything of it leaves. So a
 * call forwarded has passed every check a local call passes.
 */
export class RouteStage {
  constructor(
    private readonly operations: Operations,
    private readonly services: OperationServices,
    private readonly migration: MigrationParts,
    private readonly invocation: InvocationStage,
    private readonly audit: AuditStage,
  ) {}

  /** Serves an admitted call on its route; undefined on the local route, which the pipeline serves itself. */
  serve<State>(
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    identity: Identity | undefined,
  ): Promise<Served> | undefined {
    const name = call.operation.name as OperationName;
    const { migration } = this;
    migration.recorder?.record(name, call.caller.binding, passable(exchange, call), this.services.clock());
    const route = routeOf(migration, name);
    if (route === 'local') return undefined;
    return this.serveInScope(route, exchange, binding, state, call, identity);
  }

  /**
   * The scope check of a call on a route other than local. A record the caller may not see (or
   * that this store does not hold) is answered here by the handler, as a local call for an unknown
   * record is, with the visibility already read (a write rehearsed where this service does not
   * act); the legacy service never hears of it.
   */
  private async serveInScope<State>(
    route: Exclude<Route, 'local'>,
    exchange: Exchange,
    binding: Binding<State>,
    state: State,
    call: Call,
    identity: Identity | undefined,
  ): Promise<Served> {
    const policy = policyOf(this.operations, call.operation.name as OperationName);
    const { store } = this.services;
    const visibility = new Visibility(store, identity?.scope ?? NO_SCOPE);
    if (await recordsInScope(policy, call.parameters, visibility, store)) {
      return this.serveOnRoute(route, exchange, binding, state, call, identity);
    }
    const rehearsal = route !== 'canary' && policy.effect === 'sends';
    const invocation = await this.invocation.run(call, identity, { record: exchange.record, rehearsal, visibility });
    return invocationReply(exchange, binding, state, call, invocation);
  }

  /**
   * Serves a call on a route other than local. The route answers the caller before it compares
   * the answers, so the reply is handed on as soon as there is one; what the route does after
   * it is its own (a failure then is logged: the caller has its answer).
   */
  private serveOnRoute<State>(
    route: Exclude<Route, 'local'>,
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
      serveRouted(route, this.migration, this.routedCall(exchange, binding, state, call, identity, answer)).then(
        () => {
          if (!answered) resolve(HANG_UP);
        },
        (error: unknown) => {
          if (!answered) reject(error);
          else
            log.error('routed call failed', {
              school: exchange.record?.school,
              error: error instanceof Error ? error.stack : String(error),
            });
        },
      );
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
    const name = call.operation.name as OperationName;
    return {
      operation: name,
      sends: policyOf(this.operations, name).effect === 'sends',
      binding: call.caller.binding,
      caller: identity?.name,
      request: passable(exchange, call),
      // A run only to compare comes after the caller was answered (the request's record is closed by
      // then), by the legacy side, whose answer the trail keeps.
      runLocal: (purpose, rehearsal) =>
        purpose === 'answer'
          ? this.invocation.run(call, identity, { record, rehearsal })
          : this.invocation.run(call, identity, { rehearsal, audited: false }),
      answer: (invocation) => deliver(invocationReply(exchange, binding, state, call, invocation)),
      capture: (invocation) => answerOf(unsentReply(binding, state, call, invocation)),
      pass: (answer) => {
        if (record) record.outcome = answer.status < 400 ? 'ok' : 'legacy-fault';
        deliver(passedOn(answer));
      },
      unavailable: (reason) => {
        log.warn('legacy service unavailable', { school: record?.school, operation: name, reason });
        if (record) record.outcome = 'legacy-unavailable';
        deliver(failureReply(exchange, binding, state, new CallError('internal', LEGACY_UNAVAILABLE)));
      },
      busy: (reason) => {
        log.warn('legacy calls in flight at their bound', { school: record?.school, operation: name });
        deliver(failureReply(exchange, binding, state, new CallError('rule', reason)));
      },
      auditForwarded: (answer) => this.audit.recordForwarded(call, identity, answer),
    };
  }
}

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
    target: request.target,
    headers: clean ? { ...request.headers, 'content-type': clean.contentType } : request.headers,
    body: clean ? clean.body : exchange.bodyAsRead,
    callerAddress: call.caller.address,
  };
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
