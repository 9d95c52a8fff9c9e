import type { NotificationConfig } from '../config/notification-settings';
import { type BoundedResponse, boundedFetch, FetchFailure } from '../lib/bounded-fetch';
import { RuleViolation } from '../lib/rule-violation';

/** The header a partner school's instance carries its shared secret in when it forwards a call. */
export const FEDERATION_HEADER = 'x-school-federation';

/** Where the operation is served: the partner's base URL and the operation's endpoint path (/X.asmx). */
export interface PartnerOperation {
  readonly partnerBaseUrl: string;
  readonly endpointPath: string;
  readonly operationName: string;
}

/**
 * Runs an operation at a partner school's own instance of this service, through its JSON binding
 * at the partner's registered address, with the shared secret, a time limit, no redirects and a
 * cap on the answer. Returns the partner's result (the "d" of its answer).
 */
export async function forwardToPartner(
  settings: NotificationConfig,
  target: PartnerOperation,
  parameters: Record<string, string | number | null>,
): Promise<unknown> {
  const { federationSecret, forwardTimeoutMs, forwardMaxResponseBytes } = settings;
  const { partnerBaseUrl, endpointPath, operationName } = target;
  let answer: BoundedResponse;
  try {
    answer = await boundedFetch(
      `${partnerBaseUrl}${endpointPath}/${operationName}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', [FEDERATION_HEADER]: federationSecret ?? '' },
        body: JSON.stringify(parameters),
      },
      { timeoutMs: forwardTimeoutMs, maxResponseBytes: forwardMaxResponseBytes },
    );
  } catch (error) {
    const reason = error instanceof FetchFailure ? error.message : 'the call failed';
    throw new RuleViolation(`The partner school at ${partnerBaseUrl} could not be reached: ${reason}.`);
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
  throw new RuleViolation(`The partner school at ${partnerBaseUrl} refused the call: ${message}`);
}
