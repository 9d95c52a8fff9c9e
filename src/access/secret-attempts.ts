/**
 * What each caller name has lately done from each address with a secret: the wrong secrets it
 * sent this minute, and when it was last let in. Kept per name and address together, so that one
 * client's wrong secrets (a client still sending a replaced secret, a guesser) throttle only that
 * name from that address, and never another caller's correct secret from the same host or NAT.
 * Names no caller holds are tracked the same way, so that guessing them is throttled too and the
 * throttle does not tell which names exist.
 */

interface Attempts {
  minute: number;
  failures: number;
  /** When the name was last let in from the address; 0 for never. */
  letInAt: number;
}

/** How long a name let in from an address counts as a client of that address, for the gate's priority lane. */
const KNOWN_CLIENT_MS = 30 * 86_400_000;
/** Names and addresses remembered at most; past this the longest unseen is forgotten. */
const MAX_TRACKED = 10_000;

export class SecretAttempts {
  private readonly byKey = new Map<string, Attempts>();

  /** `failuresPerMinute`: wrong secrets per name, address and minute that are checked at all. */
  constructor(private readonly failuresPerMinute: number) {}

  /** Whether the name's secrets from the address are refused unchecked for the rest of the minute. */
  throttled(name: string, address: string, now: number): boolean {
    const attempts = this.byKey.get(keyOf(name, address));
    return attempts !== undefined && attempts.minute === minuteOf(now) && attempts.failures >= this.failuresPerMinute;
  }

  /** Whether the name was let in from the address lately and has sent no wrong secret from it this minute. */
  knownClient(name: string, address: string, now: number): boolean {
    const attempts = this.byKey.get(keyOf(name, address));
    if (attempts === undefined || attempts.letInAt === 0 || now - attempts.letInAt > KNOWN_CLIENT_MS) return false;
    return attempts.minute !== minuteOf(now) || attempts.failures === 0;
  }

  failed(name: string, address: string, now: number): void {
    const attempts = this.touch(name, address, now);
    attempts.failures += 1;
  }

  letIn(name: string, address: string, now: number): void {
    // Called on every call let in by a remembered secret: a record updated within the minute stays as it is.
    const attempts = this.byKey.get(keyOf(name, address));
    if (attempts !== undefined && now - attempts.letInAt < 60_000) return;
    this.touch(name, address, now).letInAt = now;
  }

  /** The record of the name and address for this minute, seen last (so forgotten last). */
  private touch(name: string, address: string, now: number): Attempts {
    const key = keyOf(name, address);
    const minute = minuteOf(now);
    let attempts = this.byKey.get(key);
    if (attempts === undefined) {
      attempts = { minute, failures: 0, letInAt: 0 };
      if (this.byKey.size >= MAX_TRACKED) this.byKey.delete(this.byKey.keys().next().value as string);
    } else {
      this.byKey.delete(key);
      if (attempts.minute !== minute) {
        attempts.minute = minute;
        attempts.failures = 0;
      }
    }
    this.byKey.set(key, attempts);
    return attempts;
  }
}

function keyOf(name: string, address: string): string {
  return `${name}\0${address}`;
}

function minuteOf(now: number): number {
  return Math.floor(now / 60_000);
}
