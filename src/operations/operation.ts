import type { Scope } from '../access/scope';
import type { Visibility } from '../access/visibility';
import type { NotificationConfig } from '../config/notification-settings';
import type { OperationPolicy } from '../contract/operation-policies';
import type { OperationName, OperationTypes } from '../contract/operation-types';
import type { SiblingSchools } from '../federation/sibling-schools';
import type { PayloadSealer } from '../lib/payload-sealer';
import type { Session } from '../store/session';

/**
 * What every operation handler is: the contract's typed parameters in, the contract's typed
 * result out (src/contract/operation-types.ts, generated from the WSDL). Handlers never see HTTP,
 * SOAP or XML; the call pipeline gives them what they need of the call as plain data.
 */

export type ParametersOf<Name extends OperationName> = OperationTypes[Name]['parameters'];
export type ResultOf<Name extends OperationName> = OperationTypes[Name]['result'];

/** What a handler may know of the call itself, whatever binding it came through. */
export interface CallFacts {
  /** The caller's name ("local" for a caller on LOCAL_NETWORKS that presented nothing). */
  readonly callerName: string;
  /** What the caller may see: a record outside it answers as an unknown one does. */
  readonly scope: Scope;
  /** The caller's network address (behind a trusted proxy, the client's). */
  readonly address: string;
  /** The base URL the call reached the service at: PUBLIC_BASE_URL, or http:// and the host the caller used. */
  readonly requestBaseUrl: string;
  /** The secret a partner school's instance sends with a call it forwards here; undefined for a direct call. */
  readonly federationCredential: string | undefined;
}

/** What the service gives every handler: the store, the settings and services they use, the clock. */
export interface OperationServices {
  readonly store: Session;
  readonly notificationSettings: NotificationConfig;
  /** Seals outbox payloads. */
  readonly sealer: PayloadSealer;
  /** Tells the delivery worker that messages were committed to the outbox, so it need not wait for its next poll. */
  readonly outboxChanged: () => void;
  /** The path of the endpoint that serves an operation, from the catalog: /X.asmx. */
  endpointPathOf(operationName: OperationName): string;
  /** The service's clock; tests pin it. */
  readonly clock: () => Date;
  /** The other schools of a district deployment, which a call for one of them reaches in this process. */
  readonly siblingSchools?: SiblingSchools;
}

/** What a handler runs with besides its parameters. */
export interface OperationContext extends Omit<OperationServices, 'clock'> {
  readonly call: CallFacts;
  /** What the caller's scope lets it see; a record outside it is answered as an unknown one. */
  readonly visibility: Visibility;
  /** Records that the call touched a student, teacher or class, for the audit trail. */
  touched(kind: 'student' | 'teacher' | 'class', id: number): void;
  /** The service's clock at the start of the call. */
  readonly now: Date;
  /** Today as YYYY-MM-DD, from the service's clock: "current" year and term follow it. */
  readonly today: string;
  /**
   * Set when the call is rehearsed (the legacy service answers it, this service's answer is only
   * compared): the store takes back every transaction, and nothing may be sent anywhere.
   */
  readonly rehearsal?: boolean;
}

type Returned<Value> = Promise<Value> | Value;

/**
 * How the pipeline sees an operation: its policy row (who may call it, its audit rule, its effect,
 * its parameters' bounds), and its handler, the contract's parameters in, the contract's result out.
 */
export interface OperationHandler<Name extends OperationName = OperationName> {
  readonly name: Name;
  readonly policy: OperationPolicy<Name>;
  handle(parameters: ParametersOf<Name>, context: OperationContext): Returned<ResultOf<Name>>;
}

/**
 * How an operation is written, in one declaration: `policy` is its row (who may call it, its audit
 * rule, its effect, a bound for every text parameter, or it does not compile); `decode` turns the
 * wire's parameters into what `run` works with (identifiers sent as text into numbers, say), and
 * `run` must answer with the contract's result, so a field the WSDL does not declare, or one it
 * declares that the result lacks, does not compile.
 */
export interface OperationDefinition<Name extends OperationName, Decoded> {
  readonly policy: OperationPolicy<Name>;
  decode(parameters: ParametersOf<Name>): Decoded;
  run(decoded: Decoded, context: OperationContext): Returned<ResultOf<Name>>;
}

export function defineOperation<Name extends OperationName, Decoded>(
  name: Name,
  definition: OperationDefinition<Name, Decoded>,
): OperationHandler<Name> {
  const { policy } = definition;
  return { name, policy, handle: (parameters, context) => definition.run(definition.decode(parameters), context) };
}
