import type { OperationName } from '../contract/operation-types';
import type { BindingName, Call } from './call';
import type { CallError } from './call-error';
import type { Exchange } from './exchange';
import type { Reply } from './reply';

/**
 * What a binding's decode came to, with the state its reply is to be written in: what reading the
 * request showed beyond what was known before (the SOAP version of the envelope, the header block
 * a fault names). A failure is returned when it is to be answered in that state; one thrown is
 * answered in the state decode was given.
 */
export type Decoded<State> =
  | { readonly ok: true; readonly call: Call; readonly state: State }
  | { readonly ok: false; readonly error: unknown; readonly state: State };

/**
 * A way of calling the service (SOAP 1.1/1.2, HTTP GET/POST, JSON): it decodes a request into a
 * call and encodes what came of it, and does nothing else. `State` is what the binding knows of
 * one request before it is decoded (the SOAP version its Content-Type announced, say); no method
 * changes it: decode returns the state it learnt.
 */
export interface Binding<State> {
  /** Which binding the request came by, as far as is known before it is decoded. */
  nameOf(exchange: Exchange, state: State): BindingName | undefined;
  /**
   * The operation called, when the binding knows it before the body is read (from the path), so
   * that a caller who may not call it is refused before its body is parsed.
   */
  operationBeforeBody?(state: State): OperationName | undefined;
  /** The call in the request; throws a CallError (or returns a failure) when there is none to make. */
  decode(exchange: Exchange, state: State): Decoded<State> | Promise<Decoded<State>>;
  /** The reply carrying a call's result; it writes nothing (the server does). */
  writeResult(state: State, call: Call, result: unknown): Reply;
  /** The reply carrying an error, in the binding's shape: the one place each kind gets its shape. */
  writeError(state: State, error: CallError): Reply;
}
