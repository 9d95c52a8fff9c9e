import { type LogLevel, logs, logsText, logTimestamp, textLogLine, writeLogLine } from '../lib/log';
import type { RequestRecord } from './request-record';

/** Probes a balancer sends every few seconds: logged at debug only, so they do not drown the calls. */
const QUIET_ENDPOINTS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * The JSON texts of the labels a line names its call by (caller, endpoint, operation, binding):
 * each is one of a few strings the catalog and the callers' list hold, so each is escaped once and
 * found again by a lookup. Bounded all the same, as a label that came from anywhere else would not be.
 */
const QUOTED_LABELS = new Map<string, string>();
const MOST_LABELS_KEPT = 512;

function quotedLabel(value: string): string {
  let quoted = QUOTED_LABELS.get(value);
  if (quoted === undefined) {
    quoted = JSON.stringify(value);
    if (QUOTED_LABELS.size < MOST_LABELS_KEPT) QUOTED_LABELS.set(value, quoted);
  }
  return quoted;
}

/** `,"name":"value"` for a label that is there; nothing for one that is not. */
function labelField(prefix: string, value: string | undefined): string {
  return value === undefined ? '' : prefix + quotedLabel(value);
}

/** `,"name":"value"` for a text that is there, escaped as JSON; nothing for one that is not. */
function textField(prefix: string, value: string | undefined): string {
  return value === undefined ? '' : prefix + JSON.stringify(value);
}

/**
 * The access line of a finished request: when, its id, who called from where, which school of a
 * district (none at the deployment's own), what it reached (endpoint, operation, binding), the
 * status and how long it took. Nothing else: no path or query
 * (a GET call's parameters are in it), no header, no payload; the caller is named by its id. The
 * line is written out field by field rather than by JSON.stringify of an object, which costs twice
 * as much on a path taken by every request; every text is still escaped as JSON.
 */
export function logRequest(record: RequestRecord, status: number, durationMs: number): void {
  const level: LogLevel = QUIET_ENDPOINTS.has(record.endpoint) ? 'debug' : 'info';
  if (!logs(level)) return;
  const roundedMs = Math.round(durationMs * 1000) / 1000;
  if (logsText()) {
    const { id: requestId, caller, address, endpoint, operation, binding, school } = record;
    const fields = { status, durationMs: roundedMs, school, endpoint, operation, binding, caller, address, requestId };
    writeLogLine(textLogLine(level, 'request', fields));
    return;
  }
  writeLogLine(
    `{"time":"${logTimestamp()}","level":"${level}","message":"request"` +
      // An id is a UUID or a caller's of characters JSON does not escape (request-id.ts).
      `,"requestId":"${record.id}"` +
      labelField(',"caller":', record.caller) +
      textField(',"address":', record.address) +
      labelField(',"school":', record.school) +
      labelField(',"endpoint":', record.endpoint) +
      labelField(',"operation":', record.operation) +
      labelField(',"binding":', record.binding) +
      `,"status":${status},"durationMs":${roundedMs}}`,
  );
}
