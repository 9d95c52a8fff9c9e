import type { DeliveryConfig } from '../config/delivery-settings';
import { isE164 } from '../lib/phone-number';
import { exchange, type Gateway, idempotencyHeaders } from './gateway';
import type { SmsContent } from './outbox';

/**
 * SMS through a plain HTTP gateway whose URL, method, Authorization header and body template are
 * settings. The placeholders {to} and {text} are filled escaped for where they land: JSON string
 * content for a JSON body, URL-encoded for a form body or a GET query.
 */
export function smsGateway(
  settings: DeliveryConfig['sms'] & { url: string },
  timeoutMs: number,
  now: () => Date,
): Gateway {
  const json = /json/i.test(settings.contentType);
  const escapeValue = (value: string) =>
    json && settings.method === 'POST' ? JSON.stringify(value).slice(1, -1) : encodeURIComponent(value);
  const fill = (to: string, text: string) =>
    settings.bodyTemplate.replaceAll('{to}', escapeValue(to)).replaceAll('{text}', escapeValue(text));
  return {
    send: async (message, content, stop) => {
      // Only an E.164 number is sent to: a number kept as written could be anyone's once the
      // gateway read it for its own country.
      if (!isE164(message.recipient))
        return { kind: 'failed', error: 'the recipient is no E.164 phone number: not sent' };
      const filled = fill(message.recipient, (content as SmsContent).text);
      const headers = idempotencyHeaders(message);
      if (settings.authorization) headers.Authorization = settings.authorization;
      if (settings.method === 'GET') {
        const url = new URL(settings.url);
        url.search = url.search ? `${url.search}&${filled}` : filled;
        return exchange(url.href, { method: 'GET', headers }, { timeoutMs, stop }, now);
      }
      headers['Content-Type'] = settings.contentType;
      return exchange(settings.url, { method: 'POST', headers, body: filled }, { timeoutMs, stop }, now);
    },
  };
}
