import type { ServerResponse } from 'node:http';
import { HANG_UP, type Served } from '../pipeline/reply';
import { send, sendEmpty, sendWithHeaders } from '../wire/send';

/** The challenge of a 401: .NET's clients send their credentials only once they are asked. */
export const BASIC_CHALLENGE = 'Basic realm="school-service", charset="UTF-8"';

/**
 * Writes what the pipeline served: the reply, with the headers that are the connection's business
 * (set before the reply's own, where they always went), or nothing at all when the client went
 * away, whose connection is dropped. A response begun already (a failure after its headers) is
 * dropped too: the client must not take a half answer for a whole one.
 */
export function writeReply(response: ServerResponse, served: Served): void {
  if (served === HANG_UP || response.headersSent) {
    response.destroy();
    return;
  }
  const { status, contentType, body, headers } = served;
  if (served.closeConnection) response.setHeader('Connection', 'close');
  if (served.challenge) response.setHeader('WWW-Authenticate', BASIC_CHALLENGE);
  if (contentType === undefined) {
    // A passed-on answer carries its own Content-Type among its headers; a void call has none.
    if (headers) sendWithHeaders(response, status, headers, body as Buffer);
    else sendEmpty(response, status);
    return;
  }
  if (headers) for (const name in headers) response.setHeader(name, headers[name]);
  send(response, status, contentType, body);
}
