import type { IncomingMessage, ServerResponse } from 'node:http';
import type { School, SchoolClosing } from '../school/school';
import { failRequest } from '../server/fail-request';
import type { RequestTracking } from '../server/request-tracking';
import { send } from '../wire/send';
import type { SchoolEntry } from './school-entry';

/** A registered school while it is open in this process: its School unit and its own router. */
export interface OpenedSchool {
  readonly school: School;
  readonly tracking: RequestTracking;
}

/** What a slot asks of the district: to open its school within the bound, and to be told of its calls. */
export interface SlotKeeper {
  /** Opens the slot's school once there is room for it under SCHOOLS_OPEN_MAX. */
  open(slot: SchoolSlot): Promise<OpenedSchool>;
  /** The school is closed: its place under the bound is free. */
  closed(slot: SchoolSlot): void;
  /** A call of the school ended: a slot waiting for room may find some. */
  callEnded(): void;
}

type SlotState =
  | { readonly kind: 'closed' }
  | { readonly kind: 'opening'; readonly ready: Promise<OpenedSchool> }
  | { readonly kind: 'open'; readonly opened: OpenedSchool }
  | { readonly kind: 'closing'; readonly done: Promise<void> };

const CLOSED: SlotState = { kind: 'closed' };
const TEXT = 'text/plain; charset=utf-8';

/** A request that waited for a school which was removed meanwhile. */
export class SchoolGone extends Error {
  constructor(sourcedId: string) {
    super(`the school ${sourcedId} was removed while the request waited for it`);
  }
}

/**
 * One registered school as a process holds it: closed until its first request, which opens it
 * (requests that come while it opens wait for the same opening), open while it answers, and closed
 * again when the district closes it (idle, or to make room); a request that comes while it closes
 * waits for the close to end and opens it again, so that no call is lost. It counts its calls in
 * flight, which the district never closes a school under unless the school is removed or the
 * process stops, and then only once they have ended.
 */
export class SchoolSlot {
  private state: SlotState = CLOSED;
  /** Taken off the list: the school never opens again in this process. */
  private retired = false;
  private calls = 0;
  private noCalls: (() => void) | undefined;
  /** When the school last started or ended a call, or opened (performance.now()). */
  lastUsedAt = performance.now();
  /** When the school last opened (performance.now()); undefined until it first does in this process. */
  lastOpenedAt: number | undefined;
  /** It was closed to make room while its outbox held messages to send: school-visits.ts opens it again. */
  closedWithUnsent = false;

  constructor(
    readonly entry: SchoolEntry,
    private readonly keeper: SlotKeeper,
  ) {}

  get inFlight(): number {
    return this.calls;
  }

  /** The school when it is open and not closing. */
  get opened(): OpenedSchool | undefined {
    return this.state.kind === 'open' ? this.state.opened : undefined;
  }

  /** Answers a request of the school, opening it first when it is not open. */
  handle(request: IncomingMessage, response: ServerResponse): void {
    this.calls += 1;
    this.lastUsedAt = performance.now();
    response.once('close', this.ended);
    if (this.state.kind === 'open') {
      this.state.opened.tracking.listener(request, response);
      return;
    }
    let gone = false;
    const markGone = () => {
      gone = true;
    };
    response.once('close', markGone);
    this.whenOpen().then(
      (opened) => {
        response.removeListener('close', markGone);
        // A client that went away while the school opened is not answered (nor counted twice).
        if (!gone) opened.tracking.listener(request, response);
      },
      (error: unknown) => {
        response.removeListener('close', markGone);
        if (gone) return;
        if (error instanceof SchoolGone) send(response, 404, TEXT, 'The school is no longer served here.\r\n');
        else failRequest(response, error, request);
      },
    );
  }

  /** Runs an in-process call of the school (a sibling's federation call), opening it first; a call in flight. */
  async serveInProcess<T>(work: (opened: OpenedSchool) => Promise<T>): Promise<T> {
    this.calls += 1;
    this.lastUsedAt = performance.now();
    try {
      return await work(await this.whenOpen());
    } finally {
      this.ended();
    }
  }

  private readonly ended = () => {
    this.calls -= 1;
    this.lastUsedAt = performance.now();
    if (this.calls === 0) this.noCalls?.();
    this.keeper.callEnded();
  };

  private whenOpen(): Promise<OpenedSchool> {
    const { state } = this;
    if (this.retired && state.kind !== 'open') return Promise.reject(new SchoolGone(this.entry.sourcedId));
    if (state.kind === 'open') return Promise.resolve(state.opened);
    if (state.kind === 'opening') return state.ready;
    if (state.kind === 'closing') return state.done.catch(() => undefined).then(() => this.whenOpen());
    const ready = this.keeper.open(this).then(
      (opened) => {
        this.state = { kind: 'open', opened };
        this.lastUsedAt = performance.now();
        this.lastOpenedAt = this.lastUsedAt;
        this.closedWithUnsent = false;
        return opened;
      },
      (error: unknown) => {
        this.state = CLOSED;
        throw error;
      },
    );
    this.state = { kind: 'opening', ready };
    return ready;
  }

  /** Whether the school is closed (not opening, open or closing). */
  get closed(): boolean {
    return this.state.kind === 'closed';
  }

  /** Opens the school without a request, for its rounds to run; it closes again when idle. */
  visit(): Promise<void> {
    return this.whenOpen().then(() => undefined);
  }

  /** Resolves once no call of the school is in flight. */
  callsEnded(): Promise<void> {
    if (this.calls === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.noCalls;
      this.noCalls = () => {
        this.noCalls = undefined;
        previous?.();
        resolve();
      };
    });
  }

  /** Takes the school off this process for good, once its calls have ended: it was removed from the list. */
  retire(): Promise<void> {
    this.retired = true;
    return this.close({ callsEnded: () => this.callsEnded() });
  }

  /**
   * Closes the school (after an opening under way), its calls ended by `closing.callsEnded` when
   * the district asks for it with calls in flight; a close under way is shared.
   */
  async close(closing: SchoolClosing = {}): Promise<void> {
    if (this.state.kind === 'opening') await this.state.ready.catch(() => undefined);
    const { state } = this;
    if (state.kind === 'closing') return state.done;
    if (state.kind !== 'open') return;
    const done = state.opened.school.close(closing).finally(() => {
      this.state = CLOSED;
      this.keeper.closed(this);
    });
    this.state = { kind: 'closing', done };
    return done;
  }
}
