/**
 * The gate every slow secret check (scrypt, tens of milliseconds of CPU) passes, so that checks
 * cannot take more of the machine than the operator allows, however many addresses send wrong
 * secrets: at most `inFlight` run at once, and together they use at most `cpuPercent` of one core
 * over time (a budget of CPU time that fills at that rate and that each check spends as it runs,
 * so that a quiet service checks a burst of secrets at once, after a change of the callers say).
 *
 * Waiting checks are served in two lanes. The priority lane is for checks that are very likely to
 * succeed (the registry decides: a secret showing its hash's hint, a caller let in from that
 * address before): they go ahead of any flood and need only a free slot, not the budget (which
 * they spend all the same), since only correct secrets reach the lane; so a wrong-secret flood
 * gets at most the budget and a correct secret waits at most for the check running. The other
 * lane is served fairly, one check per waiting address in turn, so that a flood from one address
 * takes one turn. A check that cannot wait (its lane is full, or it waited too long) is refused
 * as busy and costs nothing.
 */

export interface SecretCheckLimits {
  /** Checks running at once. */
  readonly inFlight: number;
  /** Percent of one core the checks may use together, on average. */
  readonly cpuPercent: number;
}

/** What a check refused by the gate resolves to. */
export const GATE_BUSY: unique symbol = Symbol('secret checks busy');

/** How many checks may wait in each lane; past this a new one is refused at once. */
const MAX_WAITING = 64;
/** How many checks of one address may wait in the fair lane: a flood from one address takes one turn. */
const MAX_WAITING_PER_ADDRESS = 2;
/** A check that waited this long is refused: its client would rather hear "try again" than hang. */
const MAX_WAIT_MS = 10_000;
/** How much CPU time the budget holds at most, in seconds of the allowed share: the burst a quiet service allows. */
const BURST_SECONDS = 1;

interface Waiter {
  readonly start: () => void;
  readonly refuse: () => void;
  timer: NodeJS.Timeout | undefined;
}

export class SecretCheckGate {
  private running = 0;
  /** CPU milliseconds the checks may still spend; below zero, they wait for it to fill again. */
  private credit: number;
  private filledAt: number;
  private readonly priority: Waiter[] = [];
  /** The fair lane: each address's waiting checks, addresses in the order they are served. */
  private readonly fair = new Map<string, Waiter[]>();
  private fairWaiting = 0;
  private refillTimer: NodeJS.Timeout | undefined;
  /** CPU milliseconds spent by checks so far, and checks run and refused: for the benchmark and the tests. */
  readonly spent = { checks: 0, busy: 0, cpuMs: 0 };

  constructor(
    private readonly limits: SecretCheckLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.credit = this.capacity();
    this.filledAt = now();
  }

  /**
   * Runs `check` when the limits allow, in the priority lane or the address's turn of the fair
   * one. `weight` is how many hashes the check computes at once, so that the budget counts them all.
   */
  run<T>(
    check: () => Promise<T>,
    lane: { readonly priority: boolean; readonly address: string },
    weight = 1,
  ): Promise<T | typeof GATE_BUSY> {
    return new Promise<T | typeof GATE_BUSY>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        this.spent.checks += 1;
        const began = this.now();
        check()
          .then(resolve, reject)
          .finally(() => {
            const cpuMs = (this.now() - began) * weight;
            this.spent.cpuMs += cpuMs;
            this.refill();
            this.credit -= cpuMs;
            this.running -= 1;
            this.startWaiting();
          });
      };
      const refuse = () => {
        this.spent.busy += 1;
        resolve(GATE_BUSY);
      };
      if (this.priority.length === 0 && this.fairWaiting === 0 && this.mayStart(lane.priority)) {
        start();
        return;
      }
      const waiter: Waiter = { start, refuse, timer: undefined };
      if (!this.enqueue(waiter, lane)) {
        refuse();
        return;
      }
      waiter.timer = setTimeout(() => {
        this.remove(waiter, lane);
        refuse();
      }, MAX_WAIT_MS);
      waiter.timer.unref();
      this.startWaiting();
    });
  }

  private capacity(): number {
    return (this.limits.cpuPercent / 100) * BURST_SECONDS * 1000;
  }

  private refill(): void {
    const at = this.now();
    this.credit = Math.min(this.capacity(), this.credit + ((at - this.filledAt) * this.limits.cpuPercent) / 100);
    this.filledAt = at;
  }

  /** Whether a check of the lane may start now: a free slot, and for the fair lane budget left. */
  private mayStart(priority: boolean): boolean {
    if (this.running >= this.limits.inFlight) return false;
    if (priority) return true;
    this.refill();
    return this.credit > 0;
  }

  private enqueue(waiter: Waiter, lane: { readonly priority: boolean; readonly address: string }): boolean {
    if (lane.priority) {
      if (this.priority.length >= MAX_WAITING) return false;
      this.priority.push(waiter);
      return true;
    }
    const queue = this.fair.get(lane.address);
    if (this.fairWaiting >= MAX_WAITING || (queue?.length ?? 0) >= MAX_WAITING_PER_ADDRESS) return false;
    if (queue) queue.push(waiter);
    else this.fair.set(lane.address, [waiter]);
    this.fairWaiting += 1;
    return true;
  }

  private remove(waiter: Waiter, lane: { readonly priority: boolean; readonly address: string }): void {
    if (lane.priority) {
      const index = this.priority.indexOf(waiter);
      if (index !== -1) this.priority.splice(index, 1);
      return;
    }
    const queue = this.fair.get(lane.address);
    const index = queue ? queue.indexOf(waiter) : -1;
    if (!queue || index === -1) return;
    queue.splice(index, 1);
    this.fairWaiting -= 1;
    if (queue.length === 0) this.fair.delete(lane.address);
  }

  /** The next check that may start: the priority lane's first, else the fair lane's next address (then last). */
  private next(): Waiter | undefined {
    if (this.priority.length > 0 && this.mayStart(true)) return this.priority.shift();
    if (!this.mayStart(false)) return undefined;
    for (const [address, queue] of this.fair) {
      const waiter = queue.shift() as Waiter;
      this.fair.delete(address);
      if (queue.length > 0) this.fair.set(address, queue);
      this.fairWaiting -= 1;
      return waiter;
    }
    return undefined;
  }

  /** Starts waiting checks while the limits allow; when only the budget holds them, looks again once it has filled. */
  private startWaiting(): void {
    for (let waiter = this.next(); waiter !== undefined; waiter = this.next()) {
      clearTimeout(waiter.timer);
      waiter.start();
    }
    if (this.fairWaiting > 0 && this.running < this.limits.inFlight && this.refillTimer === undefined) {
      const ms = Math.ceil((-this.credit * 100) / this.limits.cpuPercent) + 1;
      this.refillTimer = setTimeout(() => {
        this.refillTimer = undefined;
        this.startWaiting();
      }, ms);
      this.refillTimer.unref();
    }
  }
}
