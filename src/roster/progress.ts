import { counted } from '../lib/counted';
import { escapeControlCharacters } from '../lib/control-characters';

/**
 * What an import shows while it reads: on a terminal one line per file, redrawn, with rows read,
 * the rate and what is left of the file; without a terminal (a log, CI) a plain line every few
 * seconds and one when a file is done.
 */
export interface Progress {
  file(name: string, bytes: number): void;
  rows(count: number, bytesRead: number): void;
  fileDone(count: number): void;
  note(text: string): void;
}

const PLAIN_EVERY_MS = 5000;
const TERMINAL_EVERY_MS = 200;

export function progressDisplay(stream: NodeJS.WriteStream): Progress {
  const terminal = stream.isTTY === true;
  let name = '';
  let total = 0;
  let started = 0;
  let shown = 0;
  const describe = (count: number, bytesRead: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = Math.round(count / seconds);
    const share = total > 0 ? Math.min(bytesRead / total, 1) : 1;
    const left = share > 0 && share < 1 ? ` ~${Math.ceil((seconds / share) * (1 - share))} s left` : '';
    const percent = Math.round(share * 100);
    return `${name}: ${counted(count, 'row')}, ${rate.toLocaleString('en')} rows/s, ${percent}%${left}`;
  };
  return {
    file(fileName, bytes) {
      // A name from a zip is the bundle's to choose, control characters included.
      name = escapeControlCharacters(fileName);
      total = bytes;
      started = Date.now();
      shown = started;
    },
    rows(count, bytesRead) {
      const now = Date.now();
      if (now - shown < (terminal ? TERMINAL_EVERY_MS : PLAIN_EVERY_MS)) return;
      shown = now;
      stream.write(terminal ? `\r\x1b[K${describe(count, bytesRead)}` : `${describe(count, bytesRead)}\n`);
    },
    fileDone(count) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      stream.write(`${terminal ? '\r\x1b[K' : ''}${name}: ${counted(count, 'row')} in ${seconds} s\n`);
    },
    note(text) {
      stream.write(`${escapeControlCharacters(text)}\n`);
    },
  };
}

/** For callers that want no display (tests, the service). */
export const SILENT_PROGRESS: Progress = { file() {}, rows() {}, fileDone() {}, note() {} };
