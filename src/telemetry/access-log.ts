import { type LogLevel, logs, logsText, logTimestamp, textLogLine, writeLogLine } from '../lib/log';
import type { RequestRecord } from './request-record';

/** Probes a balancer sends every few seconds: logged at debug only, so they do not drown the calls. */
const QUIET_ENDPOINTS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** `,"name":"value"` for a value that is there; nothing for one that is not. */
function field(name: string, value: string | undefined): string {
  return value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`;
}

/**
 * The access line of a finished request: when, its id, who called from where, what it reached
 * (endpoint, operation, binding), the status and how long it took. Nothing else: no path or query
 * (a GET call's parameters are in it), no header, no payload; the caller is named by its id. The
 * line is written out field by field rather than by JSON.stringify of an object, which costs twice
 * as much on a path taken by every request; every text is still escaped as JSON.
 */
export function logRequest(record: RequestRecord, status: number, durationMs: number): void {
  const level: LogLevel = QUIET_ENDPOINTS.has(record.endpoint) ? 'debug' : 'info';
  if (!logs(level)) return;
  const roundedMs = Math.round(durationMs * 1000) / 1000;
  if (logsText()) {
    const { id: requestId, caller, address, endpoint, operation, binding } = record;
    const fields = { status, durationMs: roundedMs, endpoint, operation, binding, caller, address, requestId };
    writeLogLine(textLogLine(level, 'request', fields));
    return;
  }
  writeLogLine(
    `{"time":"${logTimestamp()}","level":"${level}","message":"request"` +
      `${field('requestId', record.id)}${field('caller', record.caller)}${field('address', record.address)}` +
      `${field('endpoint', record.endpoint)}${field('operation', record.operation)}` +
      `${field('binding', record.binding)},"status":${status},"durationMs":${roundedMs}}`,
  );
}
