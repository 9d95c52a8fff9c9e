import type { MigrationSettings, Route } from '../config/migration-settings';
import type { OperationName } from '../contract/operation-types';
import type { Answer } from '../migration/answer';
import type { Comparisons, Subject } from '../migration/comparisons';
import type { ForwardSlots } from '../migration/forward-slots';
import { askLegacy, type LegacyRequest, LegacyUnavailable } from '../migration/legacy-client';
import type { TrafficRecorder } from '../migration/traffic-recorder';
import type { Invocation } from './call';

/** What the call path needs to route calls away from this service: the table, the comparisons, the recorder. */
export interface MigrationParts {
  readonly settings: MigrationSettings;
  readonly comparisons: Comparisons;
  /** The calls each caller and address may have waiting for the legacy service. */
  readonly forwards: ForwardSlots;
  /** Records the calls let in, for a replay; undefined when not recording. */
  readonly recorder?: TrafficRecorder;
}

/** The route of an operation: the one place a call's route is looked up (after admission, before the scope check). */
export function routeOf(migration: MigrationParts | undefined, operation: OperationName): Route {
  return migration ? migration.settings.routes[operation] : 'local';
}

/**
 * One admitted call on a route other than local, as the pipeline hands it over: how to run this
 * service's handler (for real, or as a rehearsal that stores and sends nothing), how to answer
 * the caller with either side's answer, and how to capture this service's answer unsent.
 */
export interface RoutedCall {
  readonly operation: OperationName;
  /** Whether the call sends something (its policy row's effect): then only the answering side acts. */
  readonly sends: boolean;
  readonly binding: string;
  /** The caller's name; undefined for a caller that presented nothing and is no one's by its address. */
  readonly caller: string | undefined;
  readonly request: LegacyRequest;
  /**
   * Runs the handler: for the caller (canary), audited, or only to compare (shadow, where the
   * legacy answer is the one audited, and a write is rehearsed: checked and computed, nothing kept
   * or sent).
   */
  runLocal(purpose: 'answer' | 'compare', rehearsal: boolean): Promise<Invocation>;
  /** Answers the caller with this service's outcome, in the binding's shape (the reply goes to the server). */
  answer(outcome: Invocation): void;
  /** This service's answer as the binding would write it, written to no one. */
  capture(outcome: Invocation): Answer;
  /** Answers the caller with the legacy service's answer, unchanged. */
  pass(answer: Answer): void;
  /** Answers the caller that the legacy service did not answer, in the binding's shape. */
  unavailable(reason: string): void;
  /** Answers the caller that it has too many calls waiting for the legacy service, in the binding's shape. */
  busy(reason: string): void;
  /**
   * Audits a call the legacy service answered (undefined: it did not answer), with the records the
   * call named and those its answer shows.
   */
  auditForwarded(answer: Answer | undefined): Promise<void>;
}

async function legacyAnswer(parts: MigrationParts, call: RoutedCall): Promise<Answer | LegacyUnavailable> {
  const { legacyUrl, legacyTimeoutMs, legacyMaxBytes } = parts.settings;
  const limits = { legacyUrl: legacyUrl ?? '', timeoutMs: legacyTimeoutMs, maxBytes: legacyMaxBytes };
  try {
    return await askLegacy(limits, call.request);
  } catch (error) {
    if (error instanceof LegacyUnavailable) return error;
    throw error;
  }
}

/** Compares this service's answer with the legacy one, asking the legacy service a second time for a noise sample. */
async function compare(parts: MigrationParts, call: RoutedCall, subject: Subject, local: Answer, legacy: Answer) {
  const { comparisons } = parts;
  if (comparisons.sampleForNoise(call.sends)) {
    const second = await legacyAnswer(parts, call);
    if (!(second instanceof LegacyUnavailable)) comparisons.learnNoise(subject, legacy, second);
  }
  await comparisons.judge(subject, local, legacy);
}

const FORWARDS_BUSY =
  'Too many calls are waiting for the legacy service that answers this operation; try again shortly.';

/**
 * Serves a call on its route. Only the side whose answer the caller gets acts: a write in shadow
 * is rehearsed here, and a write in canary is never sent to the legacy service. Comparisons run
 * after the caller's answer is written.
 */
export async function serveRouted(route: Exclude<Route, 'local'>, parts: MigrationParts, call: RoutedCall) {
  const subject = { operation: call.operation, binding: call.binding };
  const { comparisons } = parts;
  const acts = call.sends;
  if (route === 'canary') {
    const outcome = await call.runLocal('answer', false);
    call.answer(outcome);
    if (acts) {
      await comparisons.count(subject, 'not-compared');
      return;
    }
    // The legacy answer is fetched for the comparison alone: past the caller's bound it is not fetched at all.
    const slot = parts.forwards.take(call.caller, call.request.callerAddress);
    if (!slot) {
      await comparisons.count(subject, 'dropped');
      return;
    }
    const started = comparisons.run(subject, async () => {
      try {
        const local = call.capture(outcome);
        const legacy = await legacyAnswer(parts, call);
        if (legacy instanceof LegacyUnavailable) await comparisons.count(subject, 'legacy-error');
        else await compare(parts, call, subject, local, legacy);
      } finally {
        slot();
      }
    });
    if (!started) slot();
    return;
  }
  const slot = parts.forwards.take(call.caller, call.request.callerAddress);
  if (!slot) {
    call.busy(FORWARDS_BUSY);
    return;
  }
  let legacy: Answer | LegacyUnavailable;
  try {
    legacy = await legacyAnswer(parts, call);
  } finally {
    // The answer is held beyond this for a comparison only, and comparisons have their own bound.
    slot();
  }
  if (legacy instanceof LegacyUnavailable) {
    call.unavailable(legacy.message);
    await call.auditForwarded(undefined);
    if (route === 'shadow') await comparisons.count(subject, 'legacy-error');
    return;
  }
  call.pass(legacy);
  if (route === 'shadow') {
    comparisons.run(subject, async () => {
      const local = call.capture(await call.runLocal('compare', acts));
      await compare(parts, call, subject, local, legacy);
    });
  }
  await call.auditForwarded(legacy);
}
