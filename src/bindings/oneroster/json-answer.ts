import type { ServerResponse } from 'node:http';
import { sendWithHeaders } from '../../wire/send';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes a JSON answer of the provider, never cached (a token, a school's records). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendWithHeaders(
    response,
    status,
    { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}
