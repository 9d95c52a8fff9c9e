import type { IncomingMessage, ServerResponse } from 'node:http';
import { grantedScopes } from '../../access/oauth-tokens';
import { log } from '../../lib/log';
import { countAgainstLimits, MINUTE_MS } from '../../rate-limits/rate-limit';
import { inTransaction } from '../../store/session';
import type { RequestRecord } from '../../telemetry/request-record';
import { parseContentType } from '../../wire/content-type';
import { readBody } from '../../wire/read-body';
import { clientCredentialsOf } from './client-credentials';
import { sendJson } from './json-answer';
import type { ProviderParts } from './provider-parts';

/** The largest token request read: a form of a grant type, a client's id and secret, and scopes. */
export const MAX_TOKEN_REQUEST_BYTES = 4_096;
/** The longest scope parameter taken (the six scope URIs take about 400 characters). */
export const MAX_SCOPE_LENGTH = 1_024;
/** Tokens a caller is issued per minute; a client asks for one an hour, a loop many more. */
export const TOKENS_PER_CALLER_PER_MINUTE = 60;
const FORM_TYPE = 'application/x-www-form-urlencoded';
const CHALLENGE = 'Basic realm="school-service", charset="UTF-8"';

type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

function refuse(
  response: ServerResponse,
  status: number,
  error: OAuthError,
  description: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, { error, error_description: description }, headers);
}

/** The form of a token request, or why it is none. */
async function formOf(request: IncomingMessage): Promise<URLSearchParams | { status: number; problem: string }> {
  if (parseContentType(request.headers['content-type']).mediaType !== FORM_TYPE) {
    return { status: 400, problem: `the body must be ${FORM_TYPE}` };
  }
  const read = await readBody(request, MAX_TOKEN_REQUEST_BYTES);
  if (read.kind === 'too-large') return { status: 413, problem: `the body is over ${MAX_TOKEN_REQUEST_BYTES} bytes` };
  if (read.kind !== 'body') return { status: 400, problem: 'the body could not be read (send it uncompressed)' };
  const form = new URLSearchParams(read.body.toString('utf8'));
  const names = [...form.keys()];
  // RFC 6749 §3.2: a parameter sent twice is a malformed request, not one to pick from.
  if (new Set(names).size !== names.length) return { status: 400, problem: 'a parameter is repeated' };
  return form;
}

/**
 * POST /oauth/token: OAuth 2 client credentials (RFC 6749 §4.4). The client id is a caller's name,
 * the secret its secret; the token carries the OneRoster scopes asked for (or all those the
 * caller's groups allow), each checked against its `roster` and `gradebook` grants.
 */
export async function answerTokenRequest(
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  parts: ProviderParts,
): Promise<void> {
  if (request.method !== 'POST') {
    refuse(response, 405, 'invalid_request', 'the token endpoint takes POST', { Allow: 'POST' });
    return;
  }
  const form = await formOf(request);
  if (!(form instanceof URLSearchParams)) {
    refuse(response, form.status, 'invalid_request', form.problem, { Connection: 'close' });
    return;
  }
  const grantType = form.get('grant_type');
  if (grantType === null) return refuse(response, 400, 'invalid_request', 'grant_type is missing');
  if (grantType !== 'client_credentials') {
    return refuse(response, 400, 'unsupported_grant_type', 'only client_credentials is granted');
  }
  const scope = form.get('scope') ?? undefined;
  if (scope !== undefined && scope.length > MAX_SCOPE_LENGTH) {
    return refuse(response, 400, 'invalid_scope', `scope is over ${MAX_SCOPE_LENGTH} characters`);
  }
  const client = clientCredentialsOf(request.headers.authorization, form);
  if (client.kind === 'invalid') return refuse(response, 400, 'invalid_request', client.reason);
  if (client.kind === 'none') {
    return refuse(response, 401, 'invalid_client', 'no client credentials', { 'WWW-Authenticate': CHALLENGE });
  }
  const recognition = await parts.callers.recognise(record.address, client.credentials);
  const holder = recognition.kind === 'identified' ? parts.callers.secretHolder(recognition.identity.name) : undefined;
  if (!holder) {
    const reason = recognition.kind === 'refused' ? recognition.reason : 'not a caller with a secret';
    log.warn('token refused', { school: record.school, address: record.address, reason });
    return refuse(response, 401, 'invalid_client', 'the client was not accepted', { 'WWW-Authenticate': CHALLENGE });
  }
  record.caller = holder.identity.name;
  const scopes = grantedScopes(holder.identity.operations, scope);
  if (!scopes) {
    return refuse(response, 400, 'invalid_scope', "a scope asked for is unknown or beyond the caller's operations");
  }
  const now = parts.clock();
  const limit = {
    key: `oauth-token:${holder.identity.name}`,
    limit: TOKENS_PER_CALLER_PER_MINUTE,
    windowMs: MINUTE_MS,
  };
  if (await inTransaction(parts.store, (transaction) => countAgainstLimits(transaction, [limit], now))) {
    record.outcome = 'rate-limited';
    return refuse(response, 429, 'invalid_request', 'too many tokens asked for this minute', { 'Retry-After': '60' });
  }
  const expiresAt = now.getTime() + parts.tokenTtlSeconds * 1000;
  const token = parts.tokens.sign({ caller: holder.identity.name, version: holder.version, scopes, expiresAt });
  record.outcome = 'ok';
  sendJson(response, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: parts.tokenTtlSeconds,
    scope: scopes.join(' '),
  });
}
