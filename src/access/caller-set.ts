import type { PayloadSealer } from '../lib/payload-sealer';
import type { Session } from '../store/session';
import type { CallerEntry } from './caller-entry';

/**
 * The district callers as a registered school sees them: read by the deployment's own school's
 * registry from the deployment's store (which the process keeps open), with the deployment's
 * sealer of digest secrets, under which their WS-Security digest secrets are sealed.
 */
export interface DistrictCallers {
  /** The active callers of the deployment's store, district callers among them: a new array at each change. */
  readonly entries: () => readonly CallerEntry[];
  readonly digestSealer: PayloadSealer;
  /** The deployment's store, where their WS-Security nonces are kept: a token taken at one school is spent at all. */
  readonly store: Session;
}

/** The callers one registry recognises, by name and by kind, with where each one's digest secret was sealed. */
export interface CallerSet {
  readonly byName: ReadonlyMap<string, CallerEntry>;
  /** Callers recognised by their networks alone, the school's own first. */
  readonly networkOnly: readonly CallerEntry[];
  readonly secretHolders: readonly CallerEntry[];
  /** The district callers among them, whose digest secrets the deployment's sealer opens. */
  readonly fromDistrict: ReadonlySet<CallerEntry>;
}

/**
 * A school's own callers, and the district's when the school is one of a district. A school's own
 * caller comes first: a district caller of the same name is not recognised by name at that school.
 * A school's own row marked for all schools counts as its own caller alone (only the deployment's
 * store holds district callers).
 */
export function callerSetOf(own: readonly CallerEntry[], district: readonly CallerEntry[]): CallerSet {
  const byName = new Map<string, CallerEntry>(district.map((entry) => [entry.name, entry]));
  for (const entry of own) byName.set(entry.name, entry);
  const entries = [...own, ...district.filter((entry) => byName.get(entry.name) === entry)];
  return {
    byName,
    networkOnly: entries.filter((entry) => entry.networks && entry.secretHash === null),
    secretHolders: entries.filter((entry) => entry.secretHash !== null),
    fromDistrict: new Set(district),
  };
}
