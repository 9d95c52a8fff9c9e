import { randomUUID } from 'node:crypto';

/**
 * The id a request is known by in the log and in its response's X-Request-Id: the caller's own
 * (or its proxy's) when it sent one that is short and of safe characters, so that one id follows a
 * call through several systems; else a new one. The characters allowed need no escaping in a
 * header or in JSON, and cannot forge a log line.
 */
const ACCEPTED_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

export function requestIdFor(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && ACCEPTED_ID.test(sent) ? sent : randomUUID();
}
