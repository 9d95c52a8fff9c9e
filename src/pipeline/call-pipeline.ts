import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import { RuleViolation } from '../lib/rule-violation';
import type { OperationContext, OperationServices } from '../operations/operation';
import type { Handlers } from '../operations/registry';
import type { PublicAddress } from '../wire/base-url';
import type { Call } from './call';
import { CallError, ClientGone, INTERNAL_REASON } from './call-error';
import { Exchange } from './exchange';

/**
 * A way of calling the service (SOAP 1.1/1.2, HTTP GET/POST, JSON): it decodes a request into a
 * call and encodes what came of it, and does nothing else. `State` is what the binding knows of
 * one request before it is decoded (the SOAP version its Content-Type announced, say).
 */
export interface Binding<State> {
  /** The call in the request; throws a CallError when there is none to make. */
  decode(exchange: Exchange, state: State): Call | Promise<Call>;
  writeResult(exchange: Exchange, state: State, call: Call, result: unknown): void;
  writeError(exchange: Exchange, state: State, error: CallError): void;
}

export type Invocation =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: CallError };

export interface PipelineSettings extends PublicAddress {
  readonly maxBodyBytes: number;
}

/**
 * The one path every call takes, whatever its binding: the body is read within the limits, the
 * binding decodes the call, the handler runs with what it needs of the call as plain data, and the
 * binding encodes the result or the error. Failures become CallErrors here, once: a rule's refusal
 * keeps its reason, anything unexpected is logged and answered with a generic one.
 */
export class CallPipeline {
  constructor(
    private readonly handlers: Handlers,
    private readonly services: OperationServices,
    private readonly settings: PipelineSettings,
  ) {}

  exchange(request: IncomingMessage, response: ServerResponse): Exchange {
    return new Exchange(request, response, this.settings.maxBodyBytes, this.settings);
  }

  async serve<State>(exchange: Exchange, binding: Binding<State>, state: State): Promise<void> {
    let call: Call;
    try {
      call = await binding.decode(exchange, state);
    } catch (error) {
      this.fail(exchange, binding, state, error);
      return;
    }
    const invocation = await this.invoke(call);
    if (!invocation.ok) {
      this.fail(exchange, binding, state, invocation.error);
      return;
    }
    try {
      binding.writeResult(exchange, state, call, invocation.result);
    } catch (error) {
      this.fail(exchange, binding, state, error);
    }
  }

  /** Runs the call's handler; every failure comes back as a CallError. */
  async invoke(call: Call): Promise<Invocation> {
    const name = call.operation.name as OperationName;
    // The parameters were decoded by the catalog from the same WSDL the handler's types were
    // generated from (a test keeps the two in step), so they have the shape the handler expects.
    const handler = this.handlers[name] as { handle(parameters: unknown, context: OperationContext): unknown };
    try {
      return { ok: true, result: await handler.handle(call.parameters, this.contextFor(call)) };
    } catch (error) {
      if (error instanceof RuleViolation) return { ok: false, error: new CallError('rule', error.message) };
      log.error('operation failed', { operation: name, error: error instanceof Error ? error.stack : String(error) });
      return { ok: false, error: new CallError('internal', INTERNAL_REASON) };
    }
  }

  private contextFor(call: Call): OperationContext {
    const services = this.services;
    const now = services.clock();
    // Written out rather than spread: one object of one shape per call, cheap on the hot path.
    return {
      store: services.store,
      notifications: services.notifications,
      sealer: services.sealer,
      outboxChanged: services.outboxChanged,
      endpointPathOf: services.endpointPathOf,
      call: call.caller,
      now,
      today: now.toISOString().slice(0, 10),
    };
  }

  private fail<State>(exchange: Exchange, binding: Binding<State>, state: State, error: unknown): void {
    const { response } = exchange;
    if (error instanceof ClientGone || response.headersSent) {
      response.destroy();
      return;
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
    if (exchange.bodyLeftUnread) response.setHeader('Connection', 'close');
    binding.writeError(exchange, state, callError);
  }
}
