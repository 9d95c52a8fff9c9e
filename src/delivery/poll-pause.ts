/**
 * The delivery worker's pause between polls, which wake() ends early (messages were committed to
 * the outbox) and end() ends for good (the worker stops). A wake that comes while a round is under
 * way is kept, so that the round's pause does not wait a whole poll for messages it did not see.
 */
export class PollPause {
  private wakeUp: (() => void) | undefined;
  private pendingWake = false;
  private ended = false;

  /** A round of claims begins: the wakes before it are answered by it. */
  roundBegins(): void {
    this.pendingWake = false;
  }

  /** Resolves after `ms`, or at once after a wake or the end. */
  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.pendingWake || this.ended) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  end(): void {
    this.ended = true;
    this.wakeUp?.();
  }
}
