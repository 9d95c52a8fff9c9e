import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { recordOf } from '../telemetry/request-record';

/**
 * Writes the status and headers, with the request's X-Request-Id. The id goes in with the other
 * headers rather than by setHeader beforehand: a header set that way sends every writeHead down
 * node's slower path, which costs each request a couple of microseconds.
 */
function writeHead(response: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  const record = recordOf(response);
  if (record) headers['X-Request-Id'] = record.id;
  response.writeHead(status, headers);
}

/**
 * Writes a whole response with its Content-Type and an exact Content-Length. A text goes to node
 * as it is, in UTF-8 (the same bytes as Buffer.from would make): node then sends the head and the
 * body as one string in one write, where a buffer made for it is a second chunk written beside the
 * head, and the buffer itself an allocation a call.
 */
export function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  writeHead(response, status, { 'Content-Type': contentType, 'Content-Length': length });
  if (typeof body === 'string') response.end(body, 'utf8');
  else response.end(body);
}

/** Writes a whole response with the headers given (names as they are to be sent) and an exact Content-Length. */
export function sendWithHeaders(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
): void {
  writeHead(response, status, { ...headers, 'Content-Length': body.length });
  response.end(body);
}

/** Writes a response without a body or a Content-Type, as ASMX answers a void call over HTTP. */
export function sendEmpty(response: ServerResponse, status: number): void {
  writeHead(response, status, { 'Content-Length': 0 });
  response.end();
}
