import { MIGRATED_OPERATIONS, type MigrationSettings, shownLegacyUrl } from '../config/migration-settings';
import { addOutcome, noOutcomes, type OutcomeCounts } from '../migration/shadow-report';
import type { MigrationStatus } from '../pages/status-report';
import type { comparisonCounts } from '../store/queries/shadow-comparisons';

type CountRows = Awaited<ReturnType<typeof comparisonCounts>>;

/**
 * The status page's Migration section: every operation with its route and its comparisons (all
 * bindings together); none without a legacy service, unless comparisons of one are still kept.
 */
export function migrationStatus(settings: MigrationSettings | undefined, rows: CountRows): MigrationStatus | null {
  if (settings?.legacyUrl === undefined && rows.length === 0) return null;
  const counts = new Map<string, OutcomeCounts>();
  for (const row of rows) {
    const known = counts.get(row.operation) ?? noOutcomes();
    addOutcome(known, row.outcome, Number(row.count));
    counts.set(row.operation, known);
  }
  return {
    legacyUrl: (settings && shownLegacyUrl(settings)) ?? null,
    operations: MIGRATED_OPERATIONS.map((operation) => ({
      operation,
      route: settings?.routes[operation] ?? 'local',
      ...(counts.get(operation) ?? noOutcomes()),
    })),
  };
}
