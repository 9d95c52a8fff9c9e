import type { Credentials, UNREADABLE } from '../access/credentials';
import type { Operation } from '../contract/catalog';
import type { CallError } from './call-error';

/** The ways a call reaches the service. */
export type BindingName = 'soap11' | 'soap12' | 'http-get' | 'http-post' | 'json';

/** The caller as a binding describes it, before the pipeline recognises it. */
export interface Caller {
  readonly binding: BindingName;
  /** The client's address: the connection's, or behind a trusted proxy the one it forwarded. */
  readonly address: string;
  /** The base URL the call reached the service at: PUBLIC_BASE_URL, or http:// and the host the caller used. */
  readonly requestBaseUrl: string;
  /** The secret a partner school's instance sends with a call it forwards here; undefined for a direct call. */
  readonly federationCredential: string | undefined;
  /** What the caller presented to prove who it is, if anything. */
  readonly credentials: Credentials | typeof UNREADABLE | undefined;
}

/** Parameter values by the catalog's names: strings (null when absent or nil) and ints. */
export type ParameterValues = Record<string, string | number | null>;

/** A call as a binding decoded it: which operation, with what, from whom. */
export interface Call {
  readonly operation: Operation;
  readonly parameters: ParameterValues;
  readonly caller: Caller;
}

/** What the handler's run gave: a result, or the error the caller is to be answered with. */
export type Invocation =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: CallError };
