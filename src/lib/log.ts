/**
 * One JSON object per line on stderr, so operators can ship logs anywhere. The level is set once
 * at start from LOG_LEVEL.
 *
 * Lines are gathered and written together, 16 KiB at a time, and at most 50 ms after the first of
 * them: with a line for every request, a write for each (or for each turn of the event loop, a
 * few requests under load) cost several microseconds a request. What is waiting is written when
 * the process exits, and by flushLog when it stops; a process killed with SIGKILL loses at most
 * the last 50 ms of its log.
 */
import { escapeControlCharacters } from './control-characters';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

const FLUSH_AT_LENGTH = 16 * 1024;
const FLUSH_AFTER_MS = 50;

let threshold = LOG_LEVELS.indexOf('info');
let waiting = '';
let flushScheduled = false;
let lastMillisecond = -1;
let lastTimestamp = '';

export function setLogLevel(level: LogLevel): void {
  threshold = LOG_LEVELS.indexOf(level);
}

/** Whether lines of this level are written. */
export function logs(level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= threshold;
}

/** The time of a line; made once a millisecond, as many lines fall in the same one. */
export function logTimestamp(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTimestamp = new Date(now).toISOString();
  }
  return lastTimestamp;
}

/** Writes what is waiting. */
export function flushLog(): void {
  if (waiting === '') return;
  const text = waiting;
  waiting = '';
  process.stderr.write(text);
}

function flushScheduledLines(): void {
  flushScheduled = false;
  flushLog();
}

process.on('exit', flushLog);

/** Adds one line, already a JSON object without its line end, of a level the caller checked with `logs`. */
export function writeLogLine(json: string): void {
  waiting += `${json}\n`;
  if (waiting.length >= FLUSH_AT_LENGTH) {
    flushLog();
  } else if (!flushScheduled) {
    flushScheduled = true;
    setTimeout(flushScheduledLines, FLUSH_AFTER_MS).unref();
  }
}

function write(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
  if (!logs(level)) return;
  // JSON escapes C0 controls but leaves DEL and C1 (a terminal's CSI among them) as they are.
  writeLogLine(escapeControlCharacters(JSON.stringify({ time: logTimestamp(), level, message, ...fields })));
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
