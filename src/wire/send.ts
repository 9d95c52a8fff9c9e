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

/** Writes a whole response with its Content-Type and an exact Content-Length. */
export function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  writeHead(response, status, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  response.end(bytes);
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
