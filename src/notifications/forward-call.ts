import { OperationError, type OperationContext } from '../operations/operation';
import { FEDERATION_HEADER } from '../service-context';
import { type BoundedResponse, boundedFetch, FetchFailure } from '../wire/bounded-fetch';

/**
 * Runs an operation at a partner school's own instance of this service, through its JSON binding
 * at the partner's registered address, with the shared secret, a time limit, no redirects and a
 * cap on the answer. Returns the partner's result (the "d" of its answer).
 */
export async function forwardToPartner(
  context: OperationContext,
  partnerBaseUrl: string,
  operationName: string,
  parameters: Record<string, string | number | null>,
): Promise<unknown> {
  const { federationSecret, forwardTimeoutMs, forwardMaxResponseBytes } = context.config.notifications;
  const url = `${partnerBaseUrl}${context.endpointPathOf(operationName)}/${operationName}`;
  let answer: BoundedResponse;
  try {
    answer = await boundedFetch(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', [FEDERATION_HEADER]: federationSecret ?? '' },
        body: JSON.stringify(parameters),
      },
      { timeoutMs: forwardTimeoutMs, maxResponseBytes: forwardMaxResponseBytes },
    );
  } catch (error) {
    const reason = error instanceof FetchFailure ? error.message : 'the call failed';
    throw new OperationError('rule', `The partner school at ${partnerBaseUrl} could not be reached: ${reason}.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = undefined;
  }
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (answer.status === 200 && 'd' in fields) return fields.d;
  const message = typeof fields.Message === 'string' ? fields.Message.slice(0, 300) : `HTTP ${answer.status}`;
  throw new OperationError('rule', `The partner school at ${partnerBaseUrl} refused the call: ${message}`);
}
