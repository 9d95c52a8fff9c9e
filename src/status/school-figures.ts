import { addFigures, emptyFigures, type LatencyFigures, REQUEST_BOUNDS_MS } from '../telemetry/latency-counts';
import type { ProcessSnapshot } from '../telemetry/process-telemetry';
import type { MinuteFigures } from '../telemetry/request-figures';
import type { LatencyStatus, SchoolStatus } from '../pages/status-report';

/** A registered school as the status page names it. */
export interface ListedSchool {
  readonly sourcedId: string;
  readonly path: string;
  readonly name?: string;
}

const MINUTE_MS = 60_000;

/** The calls and refusals of the last hour in these minutes (of every worker), added up. */
export function lastHourTotals(
  minutes: readonly MinuteFigures[],
  now: number,
): {
  calls: LatencyFigures;
  refusals: number;
} {
  const oldest = Math.floor(now / MINUTE_MS) - 59;
  const calls = emptyFigures(REQUEST_BOUNDS_MS);
  let refusals = 0;
  for (const slot of minutes) {
    if (slot.minute < oldest) continue;
    for (const figures of Object.values(slot.operations)) addFigures(calls, figures);
    for (const count of Object.values(slot.refusals)) refusals += count;
  }
  return { calls, refusals };
}

/**
 * Each registered school of a district, with its calls of the last hour across every worker: the
 * deployment's status page is the one place to watch them all (each school's own page, at its
 * path, shows its figures in full).
 */
export function schoolsStatus(
  schools: readonly ListedSchool[],
  snapshots: readonly ProcessSnapshot[],
  now: number,
  latency: (figures: LatencyFigures) => LatencyStatus,
): SchoolStatus[] {
  return schools.map((school) => {
    const minutes = snapshots.flatMap((snapshot) => snapshot.schools?.[school.sourcedId] ?? []);
    const { calls, refusals } = lastHourTotals(minutes, now);
    return {
      sourcedId: school.sourcedId,
      path: school.path,
      name: school.name ?? null,
      latency: latency(calls),
      refusals,
    };
  });
}
