import type { NotificationConfig } from '../config/notification-settings';
import { boundedFetch, FetchFailure } from '../lib/bounded-fetch';
import { RuleViolation } from '../lib/rule-violation';
import type { ForwardedAnswer, ForwardedCall, SiblingSchool } from './sibling-schools';

/** The header a partner school's instance carries its shared secret in when it forwards a call. */
export const FEDERATION_HEADER = 'x-school-federation';

/** Where the operation is served: the partner's base URL and the operation's endpoint path (/X.asmx). */
export interface PartnerOperation {
  readonly partnerBaseUrl: string;
  readonly endpointPath: string;
  readonly operationName: string;
}

/** The call a partner's instance is sent: JSON, with the shared secret. */
function forwardedCall(
  settings: NotificationConfig,
  target: PartnerOperation,
  parameters: Record<string, string | number | null>,
): ForwardedCall {
  return {
    path: `${target.endpointPath}/${target.operationName}`,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      [FEDERATION_HEADER]: settings.federationSecret ?? '',
    },
    body: JSON.stringify(parameters),
  };
}

async function sentOverHttp(
  settings: NotificationConfig,
  baseUrl: string,
  call: ForwardedCall,
): Promise<ForwardedAnswer> {
  const { forwardTimeoutMs, forwardMaxResponseBytes } = settings;
  try {
    return await boundedFetch(
      `${baseUrl}${call.path}`,
      { method: 'POST', headers: call.headers, body: call.body },
      { timeoutMs: forwardTimeoutMs, maxResponseBytes: forwardMaxResponseBytes },
    );
  } catch (error) {
    const reason = error instanceof FetchFailure ? error.message : 'the call failed';
    throw new RuleViolation(`The partner school at ${baseUrl} could not be reached: ${reason}.`);
  }
}

/**
 * Runs an operation at a partner school's own instance of this service, through its JSON binding
 * at the partner's registered address, with the shared secret, a time limit, no redirects and a
 * cap on the answer; or, for a school of this deployment (`sibling`), the same call through that
 * school's own pipeline in this process, which no network carries. Returns the school's result
 * (the "d" of its answer), read the same way from either.
 */
export async function forwardToPartner(
  settings: NotificationConfig,
  target: PartnerOperation,
  parameters: Record<string, string | number | null>,
  sibling?: SiblingSchool,
): Promise<unknown> {
  const { partnerBaseUrl } = target;
  const call = forwardedCall(settings, target, parameters);
  const answer = sibling ? await sibling.call(call) : await sentOverHttp(settings, partnerBaseUrl, call);
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
