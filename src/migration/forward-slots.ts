/**
 * How many calls each caller and each address may have waiting for the legacy service at once.
 * A call on `legacy` or `shadow` holds the legacy answer in memory (up to LEGACY_MAX_BYTES) until
 * it is passed on; without a bound, callers that are let in without credentials could open as
 * many such calls as they like and make this service buffer the legacy service's answers without
 * limit. Callers that presented nothing count as one caller, whatever their address.
 */
export interface ForwardLimits {
  readonly perCaller: number;
  readonly perAddress: number;
}

/** Gives the slot back; called once, when the legacy answer is no longer held for the caller. */
export type ReleaseSlot = () => void;

const ANONYMOUS = '\u0000anonymous';

export class ForwardSlots {
  private readonly byCaller = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: ForwardLimits) {}

  /** A slot for one forwarded call, or undefined when the caller or the address has all of theirs taken. */
  take(caller: string | undefined, address: string): ReleaseSlot | undefined {
    const callerKey = caller ?? ANONYMOUS;
    const [callerCount, addressCount] = [this.byCaller.get(callerKey) ?? 0, this.byAddress.get(address) ?? 0];
    if (callerCount >= this.limits.perCaller || addressCount >= this.limits.perAddress) return undefined;
    this.byCaller.set(callerKey, callerCount + 1);
    this.byAddress.set(address, addressCount + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.byCaller, callerKey);
      decrement(this.byAddress, address);
    };
  }
}

/** One fewer; a key at zero is removed, so that the maps hold only callers and addresses with calls waiting. */
function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}
