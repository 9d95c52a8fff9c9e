import type { NoteType } from '../contract/operation-types';
import { currentOf } from './queries/calendar';
import { absenceTypeNames, allNoteTypes, type Dated, referenceVersion, termStarts } from './queries/reference';
import type { ReferenceCopy, Session } from './session';

/**
 * What a change watch tells the copy: that the reference tables changed, or that changes may have
 * gone unannounced (the watch lost its connection, or has just made one).
 */
export interface ChangeWatch {
  /** Whether every change from now until `onChange` is next called will be announced. */
  readonly watching: boolean;
  close(): Promise<void>;
}

export type StartWatch = (onChange: () => void) => ChangeWatch;

interface Copies {
  terms?: Promise<readonly Dated[]>;
  noteTypes?: Promise<NoteType[]>;
  absenceTypes?: Promise<Map<number, string>>;
}

/**
 * The data that changes a few times a year (terms, note and absence types), read once and kept,
 * instead of being asked for on every call: finding the current term cost two queries of every call
 * that needed it. (The current academic year is found in the statement of each lookup that needs
 * it: see store/queries/calendar.ts.) The copy is dropped when the store says it changed,
 * whichever process changed it: triggers move a version on (migration 007). Where a watch announces
 * changes (PostgreSQL's LISTEN), a call asks nothing; without one, or while the watch is down, a
 * call reads the version, one point lookup, and rereads what changed.
 */
export class ReferenceData implements ReferenceCopy {
  private copies: Copies = {};
  /** The store's version the copies were read at; undefined when unknown. */
  private version: number | undefined;
  private watch: ChangeWatch | undefined;

  constructor(
    private readonly session: Session,
    private readonly startWatch: StartWatch | undefined,
  ) {}

  async currentTermId(today: string): Promise<number | undefined> {
    return currentOf(await this.read('terms', termStarts), today);
  }

  async noteTypes(): Promise<NoteType[]> {
    return this.read('noteTypes', allNoteTypes);
  }

  async absenceTypeNames(): Promise<Map<number, string>> {
    return this.read('absenceTypes', absenceTypeNames);
  }

  async close(): Promise<void> {
    await this.watch?.close();
    this.watch = undefined;
  }

  private drop(): void {
    this.copies = {};
    this.version = undefined;
  }

  private async read<K extends keyof Copies>(
    kind: K,
    load: (session: Session) => NonNullable<Copies[K]>,
  ): Promise<Awaited<NonNullable<Copies[K]>>> {
    if (this.startWatch && !this.watch) this.watch = this.startWatch(() => this.drop());
    if (!this.watch?.watching) {
      const version = await referenceVersion(this.session);
      if (version !== this.version) {
        this.drop();
        this.version = version;
      }
    }
    const copies = this.copies;
    let copy = copies[kind];
    if (!copy) {
      copy = load(this.session);
      copies[kind] = copy;
      // A failed read (the store unreachable) is not kept: the next call tries again.
      copy.catch(() => {
        if (copies[kind] === copy) delete copies[kind];
      });
    }
    return copy as Promise<Awaited<NonNullable<Copies[K]>>>;
  }
}
