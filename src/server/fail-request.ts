import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../lib/log';
import { send } from '../wire/send';

/** The last resort for a failure nothing else handled: log it, answer 500 without details. */
export function failRequest(response: ServerResponse, error: unknown, request?: IncomingMessage): void {
  log.error('request failed', { url: request?.url, error: error instanceof Error ? error.stack : String(error) });
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.setHeader('Connection', 'close');
  send(
    response,
    500,
    'text/plain; charset=utf-8',
    'The service could not complete the request; the failure has been logged.\r\n',
  );
}
