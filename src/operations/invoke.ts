import { log } from '../log';
import {
  OperationError,
  RawParameters,
  type OperationContext,
  type OperationHandler,
  type OperationResult,
} from './operation';

export type Invocation = { ok: true; result: OperationResult } | { ok: false; error: OperationError };

const INTERNAL_REASON = 'The service could not complete the request; the failure has been logged.';

/**
 * Runs a handler and turns every failure into an OperationError. Anything that is not already
 * one is an internal failure: it is logged here with its stack and reaches the caller only as a
 * generic reason, never with a stack trace, SQL or a file path.
 */
export async function invokeOperation(
  handler: OperationHandler,
  values: ReadonlyMap<string, string | number | null>,
  context: OperationContext,
): Promise<Invocation> {
  try {
    return { ok: true, result: await handler.handle(new RawParameters(values), context) };
  } catch (error) {
    if (error instanceof OperationError && error.kind !== 'internal') return { ok: false, error };
    log.error('operation failed', {
      operation: handler.name,
      error: error instanceof Error ? error.stack : String(error),
    });
    return { ok: false, error: new OperationError('internal', INTERNAL_REASON) };
  }
}
