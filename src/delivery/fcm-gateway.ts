import type { PushContent } from './outbox';
import { exchange, errorText, type Gateway, type GatewayOutcome, idempotencyHeaders } from './gateway';
import type { BoundedResponse } from '../lib/bounded-fetch';

/**
 * Push through the FCM HTTP v1 API: POST {"message": {token, notification: {title, body}, data}}
 * with a bearer credential. FCM answers a token that is no longer registered with 404 NOT_FOUND
 * (details: UNREGISTERED), and a malformed token with 400 INVALID_ARGUMENT; both mean the device
 * will never receive anything, so it is disabled.
 */
export function fcmGateway(url: string, token: string | undefined, timeoutMs: number, now: () => Date): Gateway {
  return {
    send: (message, content, stop) => {
      const push = content as PushContent;
      const body = JSON.stringify({
        message: { token: message.recipient, notification: { title: push.title, body: push.body }, data: push.data },
      });
      const headers: Record<string, string> = {
        ...idempotencyHeaders(message),
        'Content-Type': 'application/json; charset=utf-8',
      };
      if (token) headers.Authorization = `Bearer ${token}`;
      return exchange(url, { method: 'POST', headers, body }, { timeoutMs, stop }, now, tokenGone);
    },
  };
}

function tokenGone(response: BoundedResponse): GatewayOutcome | undefined {
  if (response.status !== 404 && response.status !== 400) return undefined;
  const text = response.body;
  const unregistered = response.status === 404 && (text.includes('UNREGISTERED') || text.includes('NOT_FOUND'));
  const invalid = response.status === 400 && text.includes('INVALID_ARGUMENT') && /token/i.test(text);
  return unregistered || invalid
    ? { kind: 'token-invalid', error: errorText(`gateway answered ${response.status}: ${text}`) }
    : undefined;
}
