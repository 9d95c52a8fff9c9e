import { log } from '../lib/log';
import type { Binding } from './binding';
import type { Call, Invocation } from './call';
import { CallError, ClientGone, INTERNAL_REASON } from './call-error';
import type { Exchange } from './exchange';
import { HANG_UP, type Reply, type Served } from './reply';

/**
 * The reply to a call that failed, in the binding's shape; HANG_UP when the client went away.
 * Whether the connection must close, and whether the caller is challenged, the server learns
 * from the reply: the headers that say so are the server's. Anything but a CallError is logged
 * and answered with a generic reason.
 */
export function failureReply<State>(exchange: Exchange, binding: Binding<State>, state: State, error: unknown): Served {
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
      school: record?.school,
      url: exchange.request.target,
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

/** The reply to the caller with what came of the handler, in the binding's shape. */
export function invocationReply<State>(
  exchange: Exchange,
  binding: Binding<State>,
  state: State,
  call: Call,
  invocation: Invocation,
): Served {
  if (!invocation.ok) return failureReply(exchange, binding, state, invocation.error);
  try {
    const answer = binding.writeResult(state, call, invocation.result);
    if (exchange.record) exchange.record.outcome = 'ok';
    return answer;
  } catch (error) {
    return failureReply(exchange, binding, state, error);
  }
}

/** This service's reply to a call, as the binding shapes it, for no one: a shadow's answer, to compare. */
export function unsentReply<State>(binding: Binding<State>, state: State, call: Call, invocation: Invocation): Reply {
  try {
    if (invocation.ok) return binding.writeResult(state, call, invocation.result);
  } catch (error) {
    log.error('request failed', { error: error instanceof Error ? error.stack : String(error) });
    return binding.writeError(state, new CallError('internal', INTERNAL_REASON));
  }
  return binding.writeError(state, invocation.error);
}
