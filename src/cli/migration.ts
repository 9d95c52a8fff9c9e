import { MIGRATED_OPERATIONS, shownLegacyUrl } from '../config/migration-settings';
import { sends } from '../operations/registry';
import { loadConfig } from '../config/service-config';
import { reportText, shadowReport } from '../migration/shadow-report';
import { openStore } from '../store/open-store';
import { UsageError } from './usage-error';

/** Prints the route of every operation as the settings give them (a bad setting fails as the service would). */
export function routesCommand(options: { readonly json: boolean }): void {
  const { migration } = loadConfig();
  const legacyUrl = shownLegacyUrl(migration);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ legacyUrl: legacyUrl ?? null, routes: migration.routes })}\n`);
    return;
  }
  const lines = [`Legacy service: ${legacyUrl ?? 'none (LEGACY_URL is unset)'}`];
  const width = Math.max(...MIGRATED_OPERATIONS.map((name) => name.length));
  for (const name of MIGRATED_OPERATIONS) {
    const note = sends(name) ? '  (writes: only the answering side acts)' : '';
    lines.push(`  ${name.padEnd(width)}  ${migration.routes[name]}${note}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

export interface ShadowReportOptions {
  readonly since?: string;
  readonly operation?: string;
  readonly json: boolean;
}

/** Prints how the comparisons with the legacy service came out, per operation and binding, and where they differ. */
export async function shadowReportCommand(options: ShadowReportOptions): Promise<void> {
  if (options.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.since)) {
    throw new UsageError(`--since must be a date, YYYY-MM-DD, got "${options.since}"`);
  }
  if (options.operation !== undefined && !MIGRATED_OPERATIONS.some((name) => name === options.operation)) {
    throw new UsageError(`--operation: "${options.operation}" is no operation of the service`);
  }
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  try {
    const report = await shadowReport(store, { since: options.since, operation: options.operation });
    process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : reportText(report));
  } finally {
    await store.close();
  }
}
