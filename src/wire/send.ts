import type { ServerResponse } from 'node:http';

/** Writes a whole response with its Content-Type and an exact Content-Length. */
export function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  response.end(bytes);
}
