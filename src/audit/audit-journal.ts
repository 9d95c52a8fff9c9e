import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** The journal's folder in the data folder: one file a process and a flush period, moved to the trail, then deleted. */
export const JOURNAL_FOLDER = 'audit-journal';

/** `PID.TOKEN.N.jsonl`: the process that owns a segment, its run (a pid is reused) and the segment's number. */
const SEGMENT_NAME = /^(\d+)\.([0-9a-f]+)\.(\d+)\.jsonl$/;

/** A closed segment: its file and the lines it holds, one audited call each. */
export interface JournalSegment {
  readonly path: string;
  readonly lines: readonly string[];
}

/** The runs of journals open in this process: never orphans, though their pid is this process's. */
const OPEN_HERE = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens a file for appending, readable by its owner only whatever the umask: it names who saw which child. */
function openPrivate(path: string): number {
  const fd = openSync(path, 'a', 0o600);
  fchmodSync(fd, 0o600);
  return fd;
}

/**
 * The audit trail's journal of one process. Every audited call appends its line before its answer
 * leaves (a write to the operating system, no fsync: what a killed process wrote is in the page
 * cache and reaches the disk; only the machine itself failing loses it). At each flush the segment
 * being written is closed and a new one opened; the trail's writer deletes a closed segment once
 * its calls are in the store. A segment left behind by a process that died is moved to the trail
 * by the next process to start (see `claimOrphans`), so a crash loses no answered call.
 */
export class AuditJournal {
  /** This run of this process: a restarted process in a container often gets the same pid. */
  readonly token = randomBytes(4).toString('hex');
  private segment = 0;
  private fd: number;
  private path: string;
  private lines: string[] = [];
  /** Lines appended and not yet written to the file: the calls of this turn of the event loop. */
  private unwritten = '';

  constructor(private readonly folder: string) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    OPEN_HERE.add(this.token);
    this.path = this.segmentPath();
    this.fd = openPrivate(this.path);
  }

  /** The calls appended since the last `rotate`. */
  get length(): number {
    return this.lines.length;
  }

  /** Appends one call's line to memory; `write` takes it to the file, with the others appended since. */
  append(line: string): void {
    this.unwritten += `${line}\n`;
    this.lines.push(line);
  }

  /** Whether lines were appended that are not in the file yet. */
  get holdsUnwritten(): boolean {
    return this.unwritten !== '';
  }

  /** Writes the lines appended since the last write to the file, in one system call. */
  write(): void {
    if (this.unwritten === '') return;
    const text = this.unwritten;
    this.unwritten = '';
    writeSync(this.fd, text);
  }

  /** Closes the segment being written and opens the next; the closed one, or nothing when it was empty. */
  rotate(): JournalSegment | undefined {
    if (this.lines.length === 0) return undefined;
    this.write();
    const closed = { path: this.path, lines: this.lines };
    closeSync(this.fd);
    this.segment += 1;
    this.path = this.segmentPath();
    this.fd = openPrivate(this.path);
    this.lines = [];
    return closed;
  }

  /** Closes the file for good, removing the segment being written when it holds nothing (rotate first). */
  close(): void {
    this.write();
    OPEN_HERE.delete(this.token);
    closeSync(this.fd);
    if (this.lines.length === 0) unlinkSync(this.path);
  }

  /**
   * The segments of processes that are gone (their pid is dead, or is this process's under another
   * run), claimed by renaming each into this run's name: a rename is atomic, so of processes
   * starting at once exactly one takes a segment. The last line of a killed process may be cut
   * short; the writer leaves out what does not parse (that call had not been answered).
   */
  claimOrphans(): JournalSegment[] {
    const claimed: JournalSegment[] = [];
    for (const name of readdirSync(this.folder)) {
      const match = SEGMENT_NAME.exec(name);
      if (!match) continue;
      const pid = Number(match[1]);
      if (OPEN_HERE.has(match[2]) || (pid !== process.pid && isAlive(pid))) continue;
      this.segment += 1;
      const path = this.segmentPath();
      try {
        renameSync(join(this.folder, name), path);
      } catch {
        continue; // another process claimed it first
      }
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '');
      if (lines.length === 0) unlinkSync(path);
      else claimed.push({ path, lines });
    }
    return claimed;
  }

  private segmentPath(): string {
    return join(this.folder, `${process.pid}.${this.token}.${this.segment}.jsonl`);
  }
}
