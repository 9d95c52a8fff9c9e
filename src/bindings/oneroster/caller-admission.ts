import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Identity } from '../../access/caller-registry';
import { log } from '../../lib/log';
import { countAgainstLimits, MINUTE_MS } from '../../rate-limits/rate-limit';
import { inTransaction } from '../../store/session';
import type { RequestRecord } from '../../telemetry/request-record';
import { bearerAccess } from './bearer-access';
import type { ProviderParts } from './provider-parts';
import { sendStatusInfo } from './status-info';

/**
 * Lets a REST request go on, as whom, or answers it: 401 without a valid token (with a Bearer
 * challenge), 403 when the token lacks every one of `needed`, and 429 with Retry-After once the
 * caller made ONEROSTER_REQUESTS_PER_MINUTE requests this minute (counted in the store, so across
 * nodes). `closeAfter`: the request's body is left unread, so its connection is closed.
 */
export async function admitCaller(
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  parts: ProviderParts,
  needed: readonly string[],
  closeAfter = false,
): Promise<Identity | undefined> {
  const close: Record<string, string> = closeAfter ? { Connection: 'close' } : {};
  const access = bearerAccess(request.headers.authorization, parts, needed);
  if (!access.ok) {
    log.warn('OneRoster request refused', { school: record.school, address: record.address, reason: access.reason });
    const challenge: Record<string, string> = access.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    const codeMinor = access.status === 401 ? 'unauthorisedrequest' : 'forbidden';
    sendStatusInfo(response, access.status, codeMinor, access.reason, { ...challenge, ...close });
    return undefined;
  }
  record.caller = access.identity.name;
  const limit = { key: `oneroster:${access.identity.name}`, limit: parts.requestsPerMinute, windowMs: MINUTE_MS };
  const now = parts.clock();
  if (await inTransaction(parts.store, (transaction) => countAgainstLimits(transaction, [limit], now))) {
    record.outcome = 'rate-limited';
    const description = `Over ${parts.requestsPerMinute} requests this minute; try again later.`;
    sendStatusInfo(response, 429, 'server_busy', description, { 'Retry-After': '60', ...close });
    return undefined;
  }
  return access.identity;
}
