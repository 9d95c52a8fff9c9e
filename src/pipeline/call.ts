import type { Operation } from '../contract/catalog';
import type { CallFacts } from '../operations/operation';

/** The ways a call reaches the service. */
export type BindingName = 'soap11' | 'soap12' | 'http-get' | 'http-post' | 'json';

/** Who is calling and how: what the pipeline and the handlers may know of the caller. */
export interface Caller extends CallFacts {
  readonly binding: BindingName;
}

/** Parameter values by the catalog's names: strings (null when absent or nil) and ints. */
export type ParameterValues = Record<string, string | number | null>;

/** A call as a binding decoded it: which operation, with what, from whom. */
export interface Call {
  readonly operation: Operation;
  readonly parameters: ParameterValues;
  readonly caller: Caller;
}
