/**
 * One JSON object per line on stderr, so operators can ship logs anywhere; with LOG_FORMAT=text,
 * one aligned line per event for a terminal instead (time, level, message, then name=value). The
 * level and the format are set once at start from LOG_LEVEL and LOG_FORMAT.
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
export type LogFormat = 'json' | 'text';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

const FLUSH_AT_LENGTH = 16 * 1024;
const FLUSH_AFTER_MS = 50;

let threshold = LOG_LEVELS.indexOf('info');
let format: LogFormat = 'json';
let waiting = '';
let flushScheduled = false;
let lastMillisecond = -1;
let lastTimestamp = '';

export function setLogLevel(level: LogLevel): void {
  threshold = LOG_LEVELS.indexOf(level);
}

/** Sets the level and the format, as the settings say. */
export function configureLog(settings: { readonly logLevel: LogLevel; readonly logFormat: LogFormat }): void {
  threshold = LOG_LEVELS.indexOf(settings.logLevel);
  format = settings.logFormat;
}

/** Whether lines are aligned text for a terminal rather than JSON. */
export function logsText(): boolean {
  return format === 'text';
}

/** Messages are padded to this width in text lines, so that the fields after them line up. */
const TEXT_MESSAGE_WIDTH = 40;

/** A value in a text line: a word as it is, anything else (spaces, quotes, line ends, objects) as JSON. */
function textValue(value: unknown): string {
  if (typeof value === 'string' && /^[^\s"=]+$/.test(value)) return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** The text line of an event, without its line end: one line whatever the fields hold. */
export function textLogLine(level: LogLevel, message: string, fields?: Record<string, unknown>): string {
  const text = message.replaceAll('\n', ' ').padEnd(TEXT_MESSAGE_WIDTH);
  let line = `${logTimestamp()}  ${level.toUpperCase().padEnd(5)}  ${text}`;
  if (fields) {
    for (const name in fields) {
      const value = fields[name];
      if (value !== undefined) line += `  ${name}=${textValue(value)}`;
    }
  }
  return line.trimEnd();
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

/** Adds one line, already formatted (see logsText) without its line end, of a level the caller checked with `logs`. */
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
  // JSON escapes C0 controls but leaves DEL and C1 (a terminal's CSI among them) as they are; text, all of them.
  writeLogLine(
    escapeControlCharacters(
      format === 'text'
        ? textLogLine(level, message, fields)
        : JSON.stringify({ time: logTimestamp(), level, message, ...fields }),
    ),
  );
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
