import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { PayloadSealer } from '../delivery/payload-sealer';
import type { Engine } from '../store/engine';
import type { Database } from '../store/schema';

/**
 * What every operation handler is: typed parameters in, a typed result out. Handlers never see
 * HTTP, SOAP or XML; the bindings decode the wire into RawParameters and encode the result.
 */

/** Parameter values as the catalog decoded them: absent strings are null, ints are numbers. */
export class RawParameters {
  constructor(private readonly values: ReadonlyMap<string, string | number | null>) {}

  string(name: string): string | null {
    const value = this.values.get(name);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new TypeError(`parameter ${name} is not a string`);
    return value;
  }

  /**
   * An identifier sent as text: digits within the int range, or undefined. Identifiers the store
   * cannot hold are simply unknown, which the product answers with an empty result, not a fault.
   */
  identifier(name: string): number | undefined {
    const text = this.string(name)?.trim() ?? '';
    if (!/^\d{1,10}$/.test(text)) return undefined;
    const value = Number(text);
    return value >= 1 && value <= 2147483647 ? value : undefined;
  }

  int(name: string): number {
    const value = this.values.get(name);
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number') throw new TypeError(`parameter ${name} is not an int`);
    return value;
  }
}

/** Facts about the call that rules such as rate limits need, independent of the binding. */
export interface CallContext {
  readonly callerAddress: string;
  /**
   * The credential a partner school's instance sends when it forwards a call here (header
   * X-School-Federation), or undefined for a direct call.
   */
  readonly federationCredential: string | undefined;
}

/** What a handler may use besides its parameters: the call, the settings, the store and the clock. */
export interface OperationContext extends CallContext {
  readonly config: Config;
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** The service's clock at the start of the call. */
  readonly now: Date;
  /** Today as YYYY-MM-DD, from the service's clock: "current" year and term follow it. */
  readonly today: string;
  /** Tells the delivery worker that messages were committed to the outbox, so it need not wait for its next poll. */
  readonly outboxChanged: () => void;
  /** Seals outbox payloads. */
  readonly sealer: PayloadSealer;
  /** This deployment's own school's base URL, normalised (see the school registry). */
  ownSchoolUrl(): string;
  /** The path of the endpoint that serves an operation, from the catalog: /X.asmx. */
  endpointPathOf(operationName: string): string;
}

/**
 * A handler's typed result: a record, a list of records, a string, or undefined for "nothing"
 * (an unknown identifier, or an operation without a result).
 */
export type OperationResult = string | number | boolean | object | undefined;

/** How an operation is written: a decoder to its own typed parameters, and a runner of them. */
export interface OperationDefinition<Parameters> {
  readonly name: string;
  decode(raw: RawParameters): Parameters;
  run(parameters: Parameters, context: OperationContext): Promise<OperationResult> | OperationResult;
}

/** How the bindings see an operation: its parameter types are its own business. */
export interface OperationHandler {
  readonly name: string;
  handle(raw: RawParameters, context: OperationContext): Promise<OperationResult> | OperationResult;
}

/** Ties a decoder and a runner together so that `run` receives exactly what `decode` produced. */
export function defineOperation<Parameters>(definition: OperationDefinition<Parameters>): OperationHandler {
  return { name: definition.name, handle: (raw, context) => definition.run(definition.decode(raw), context) };
}

/**
 * An error with a kind the bindings map to the wire: `client` for a request that cannot be read,
 * `rule` for a rule the service enforces, `internal` for a failure of the service itself.
 */
export type OperationErrorKind = 'client' | 'rule' | 'internal';

export class OperationError extends Error {
  constructor(
    readonly kind: OperationErrorKind,
    message: string,
  ) {
    super(message);
  }
}
