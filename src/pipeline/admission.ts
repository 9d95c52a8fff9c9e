import type { CallerRegistry, Identity, Recognition } from '../access/caller-registry';
import { mayCall } from '../access/caller-registry';
import { parameterTooLong } from '../contract/operation-policies';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import type { Operations } from '../operations/registry';
import type { RequestRecord } from '../telemetry/request-record';
import type { Binding } from './binding';
import type { Call, Caller } from './call';
import { CallError } from './call-error';
import type { Exchange } from './exchange';
import { policyOf } from './pipeline-parts';

/** A caller recognised before the body was read, and let go on. */
export interface BeforeBody {
  readonly caller: Caller;
  readonly recognition: Recognition;
}

/** Whether a call may go on, and as whom. */
export type Admission =
  | { readonly ok: true; readonly identity: Identity | undefined }
  | { readonly ok: false; readonly error: CallError };

const HOW_TO_LET_IN = 'The operator lets callers in with the command school-service callers add.';

/**
 * The admission stage: before the body is read, the caller that can be decided from the headers
 * and the path; after it, the parameters' bounds, the caller (recognised once a call) and what
 * it may call. A refusal is logged with the caller's address, never with a secret.
 */
export class AdmissionStage {
  constructor(
    private readonly operations: Operations,
    private readonly callers: CallerRegistry,
  ) {}

  /**
   * Refuses, before a byte of the body is parsed, a caller that can be decided without it: one
   * whose Authorization header (Basic, or Bearer) is not accepted, and, where the binding knows the
   * operation from the path, one whose address or header does not let it call that operation. A
   * flood of bodies from such callers then costs no parsing. SOAP without an Authorization header
   * is left to the body, which may carry a UsernameToken. Throws the refusal.
   */
  beforeBody<State>(
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
    const recognising = this.callers.recognise(caller.address, caller.credentials);
    return recognising instanceof Promise
      ? recognising.then((recognition) => this.decideBeforeBody(exchange, caller, operation, recognition))
      : this.decideBeforeBody(exchange, caller, operation, recognising);
  }

  /**
   * Checks the parameters' bounds, recognises the caller (unless `recognised` says how it was
   * before the body) and checks that it may call the operation. Most callers are recognised from
   * memory: a promise only when recognising needs one spares the call a turn of the queue.
   */
  afterBody(call: Call, record?: RequestRecord, recognised?: Recognition): Admission | Promise<Admission> {
    const name = call.operation.name as OperationName;
    const tooLong = parameterTooLong(policyOf(this.operations, name), call.parameters);
    if (tooLong) {
      const message = `${tooLong.name} must be at most ${tooLong.limit} characters long.`;
      return { ok: false, error: new CallError('rule', message) };
    }
    if (recognised) return this.decide(call, name, recognised, record);
    const recognising = this.callers.recognise(call.caller.address, call.caller.credentials);
    return recognising instanceof Promise
      ? recognising.then((recognition) => this.decide(call, name, recognition, record))
      : this.decide(call, name, recognising, record);
  }

  /** Throws the refusal of a caller that may not go on; else what was learnt of it, for the admission after it. */
  private decideBeforeBody(
    exchange: Exchange,
    caller: Caller,
    operation: OperationName | undefined,
    recognition: Recognition,
  ): BeforeBody {
    const identity = recognition.kind === 'identified' ? recognition.identity : undefined;
    if (recognition.kind === 'refused' || (operation !== undefined && !this.mayCall(identity, operation))) {
      if (exchange.record && operation !== undefined) exchange.record.operation = operation;
      throw this.refusal(caller, operation, recognition, exchange.record?.school);
    }
    return { caller, recognition };
  }

  private decide(call: Call, name: OperationName, recognition: Recognition, record?: RequestRecord): Admission {
    const identity = recognition.kind === 'identified' ? recognition.identity : undefined;
    if (record && recognition.kind !== 'refused') record.caller = identity?.name ?? 'anonymous';
    if (!this.mayCall(identity, name))
      return { ok: false, error: this.refusal(call.caller, name, recognition, record?.school) };
    return { ok: true, identity };
  }

  /**
   * Refuses a call the caller may not make, in the log with its address (and the district school
   * it was made at) and never with a secret. Where credentials could let it in, the answer is a
   * challenge (401); else a plain refusal.
   */
  private refusal(
    caller: Caller,
    name: OperationName | undefined,
    recognition: Recognition,
    school: string | undefined,
  ): CallError {
    const { address, binding } = caller;
    const callerName = recognition.kind === 'identified' ? recognition.identity.name : undefined;
    const reason =
      recognition.kind === 'refused'
        ? recognition.reason
        : recognition.kind === 'anonymous'
          ? 'no credentials'
          : 'operation not granted';
    log.warn('call refused', { school, address, operation: name, binding, caller: callerName, reason });
    if (recognition.kind === 'refused') {
      return new CallError('unauthenticated', `Access denied: the credentials were not accepted. ${HOW_TO_LET_IN}`);
    }
    const anonymous = recognition.kind === 'anonymous' && name !== undefined;
    if (anonymous && this.callers.credentialCouldHelp(name, policyOf(this.operations, name).group)) {
      return new CallError('unauthenticated', `Access denied: ${name} needs a caller's credentials. ${HOW_TO_LET_IN}`);
    }
    const who = callerName === undefined ? address : `caller ${callerName}`;
    return new CallError('forbidden', `Access denied: ${who} may not call ${name}. ${HOW_TO_LET_IN}`);
  }

  /** Whether the identity may call the operation, by its name and its policy row's group. */
  private mayCall(identity: Identity | undefined, name: OperationName): boolean {
    return mayCall(identity, name, policyOf(this.operations, name).group);
  }
}
