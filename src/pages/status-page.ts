import { callsChart } from './calls-chart';
import { migrationSection } from './migration-section';
import { escapeHtml } from '../wire/html-escape';
import type { LatencyStatus, StatusReport } from './status-report';

const STYLE = `
    body { font-family: sans-serif; margin: 1.5em 2em; color: #1a1a1a; }
    h1 { font-size: 1.4em; margin-bottom: 0.2em; }
    h2 { font-size: 1.1em; margin-top: 1.6em; border-bottom: 1px solid #cccccc; }
    table { border-collapse: collapse; }
    th, td { text-align: left; padding: 0.2em 1em 0.2em 0; }
    td.number, th.number { text-align: right; }
    .note { color: #666666; font-size: 0.9em; }
    .problem { color: #b00020; }
    .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1.2em; font-size: 0.9em; }
    .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; }`;

const text = (value: string | number) => escapeHtml(String(value));

/** A table row; cells from `numberFrom` on are figures, aligned right. */
function row(cells: ReadonlyArray<string | number>, numberFrom = Number.POSITIVE_INFINITY): string {
  const tds = cells.map((cell, index) => `<td${index >= numberFrom ? ' class="number"' : ''}>${text(cell)}</td>`);
  return `<tr>${tds.join('')}</tr>`;
}

/** A table with a header row, or without one (`head` undefined) for a list of names and values. */
function table(
  head: readonly string[] | undefined,
  rows: readonly string[],
  numberFrom = Number.POSITIVE_INFINITY,
): string {
  const header = (head ?? []).map(
    (name, index) => `<th${index >= numberFrom ? ' class="number"' : ''}>${text(name)}</th>`,
  );
  const thead = head ? `<thead><tr>${header.join('')}</tr></thead>` : '';
  return `<table>${thead}<tbody>${rows.join('')}</tbody></table>`;
}

const milliseconds = (value: number | null) => (value === null ? '–' : `${value.toFixed(value < 10 ? 2 : 0)} ms`);

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  return days > 0 ? `${days} d ${hours} h ${minutes} min` : `${hours} h ${minutes} min`;
}

function bytes(size: number | null): string {
  if (size === null) return 'unknown';
  return size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(1)} MiB` : `${(size / 1024).toFixed(0)} KiB`;
}

const latencyCells = (latency: LatencyStatus) => [
  latency.calls,
  milliseconds(latency.p50Ms),
  milliseconds(latency.p90Ms),
  milliseconds(latency.p99Ms),
];

/** The status page: the report as HTML for the school's IT staff, self-contained, refreshed every 30 s. */
export function statusPage(report: StatusReport): string {
  const { store, workers } = report;
  const storeProblem = store.problem
    ? `<p class="problem">The store could not be asked: ${text(store.problem)}</p>`
    : '';
  const summary = table(undefined, [
    row(['Version', report.version]),
    row(['This node', report.node]),
    row(['Started', `${report.startedAt} (up ${duration(report.uptimeSeconds)})`]),
    row(['Store', `${store.engine}, ${store.location}`]),
    row(['Store size', bytes(store.sizeBytes)]),
    row(['Workers on this node', `${workers.serving} (figures of ${workers.reported.length})`]),
  ]);
  const nodes = nodesSection(report.nodes);
  const operations = table(
    ['Operation', 'Calls', 'p50', 'p90', 'p99'],
    [
      ...report.operations.map((operation) => row([operation.operation, ...latencyCells(operation)], 1)),
      row(['All operations', ...latencyCells(report.latency)], 1),
    ],
    1,
  );
  const refusals = table(
    ['Reason', 'Calls refused'],
    Object.entries(report.refusals).map(([reason, count]) => row([reason, count], 1)),
    1,
  );
  const outbox = outboxSection(report.outbox);
  const lastImport = lastImportSection(report.lastImport);
  // Only where the school syncs from a SIS: a service that never did shows no empty section.
  const sync = report.lastSync;
  const lastSync = lastSyncSection(sync);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="refresh" content="30">
    <title>Status: school information service</title>
    <style>${STYLE}
    </style>
  </head>
  <body>
    <h1>School information service: status</h1>
    <p class="note">At ${text(report.generatedAt)} (UTC); this page refreshes itself every 30 seconds.
      The same figures as JSON: <a href="status.json">status.json</a>; for Prometheus: /metrics.</p>
    ${storeProblem}
    <h2>Service</h2>
    ${summary}
    <h2>Nodes serving from this store</h2>
    ${nodes}
    <h2>Calls per minute, last hour</h2>
    ${callsChart(report.callsPerMinute)}
    <h2>Latency, last hour</h2>
    ${operations}
    <p class="note">From the arrival of a call to the end of its response; percentiles are estimated from
      buckets, as Prometheus does.</p>
    <h2>Refused calls, last hour</h2>
    ${refusals}
    <h2>Outbox</h2>
    ${outbox}
    <h2>Last import</h2>
    ${lastImport}
    <p class="note">Students erased by the retention after leaving: ${report.erasedByRetention ?? 'unknown'}.</p>
    ${migrationSection(report.migration)}
    ${sync ? `<h2>Last SIS sync</h2>\n    ${lastSync}` : ''}
    ${schoolsSection(report.schools)}
  </body>
</html>
`;
}

/** The schools of a district with their calls of the last hour; nothing in a deployment of one school. */
function schoolsSection(schools: StatusReport['schools']): string {
  if (!schools?.length) return '';
  const rows = schools.map((school) =>
    row([school.sourcedId, school.name ?? '', school.path, ...latencyCells(school.latency), school.refusals], 3),
  );
  return `<h2>Schools, last hour</h2>
    ${table(['School', 'Name', 'Path', 'Calls', 'p50', 'p90', 'p99', 'Refused'], rows, 3)}
    <p class="note">Each school's own figures in full: its path, then /status.</p>`;
}

/** The nodes serving from this store, or why they are not known. */
function nodesSection(nodes: StatusReport['nodes']): string {
  return nodes === null
    ? '<p class="note">Not known: the store could not be asked.</p>'
    : table(
        ['Node', 'Processes', 'Version', 'Serving since', 'Last seen'],
        nodes.map((node) => row([node.node, node.processes, node.version, node.since, node.seenAt])),
      );
}

/** The outbox's messages by state and channel. */
function outboxSection(outbox: StatusReport['outbox']): string {
  return outbox === null
    ? '<p class="note">Not known: the store could not be asked.</p>'
    : outbox.length === 0
      ? '<p class="note">No messages.</p>'
      : table(
          ['State', 'Channel', 'Messages'],
          outbox.map((group) => row([group.state, group.channel, group.count], 2)),
          2,
        );
}

/** The last OneRoster import into this store. */
function lastImportSection(lastImport: StatusReport['lastImport']): string {
  return lastImport
    ? table(undefined, [
        row(['Finished', lastImport.finishedAt]),
        row(['Started', lastImport.startedAt]),
        row(['Mode', lastImport.mode]),
        row(['From', lastImport.source]),
        row(['Rows written, skipped', `${lastImport.rowsWritten}, ${lastImport.rowsSkipped}`]),
      ])
    : '<p class="note">No OneRoster import has been made into this store.</p>';
}

/** The last SIS sync, its outcome and changes, and when the next is due here. */
function lastSyncSection(sync: StatusReport['lastSync']): string {
  return sync?.last
    ? table(undefined, [
        row(['Finished', sync.last.finishedAt]),
        row(['Outcome', sync.last.message ? `${sync.last.outcome}: ${sync.last.message}` : sync.last.outcome]),
        row([
          'Mode, node, seconds',
          `${sync.last.mode}, ${sync.last.node}, ${(sync.last.durationMs / 1000).toFixed(1)}`,
        ]),
        row([
          'Added, changed, deleted',
          `${sync.last.added}, ${sync.last.changed}, ${sync.last.deleted} (of ${sync.last.records} read)`,
        ]),
        row(['By kind', changesByKind(sync.last.changes) || 'no changes']),
        row([
          'Warnings, problems, sent twice',
          `${sync.last.warnings}, ${sync.last.problems}, ${sync.last.duplicates}`,
        ]),
        row(['Next run here', sync.nextRunAt ?? 'not scheduled']),
        ...(sync.lastAttemptHere
          ? [row(['Last try here', `${sync.lastAttemptHere.at} (${sync.lastAttemptHere.outcome})`])]
          : []),
      ])
    : `<p class="note">No SIS sync has run${sync?.nextRunAt ? `; the first is due at ${sync.nextRunAt}` : ''}.</p>`;
}

/** "marks: 1 added, 1 changed; students: 1 deleted", the parts that are not zero. */
function changesByKind(changes: NonNullable<NonNullable<StatusReport['lastSync']>['last']>['changes']): string {
  return Object.entries(changes)
    .map(([table, change]) => {
      const parts = (['added', 'changed', 'deleted'] as const)
        .filter((kind) => (change[kind] ?? 0) > 0)
        .map((kind) => `${change[kind]} ${kind}`);
      return parts.length > 0 ? `${table.replace(/_/g, ' ')}: ${parts.join(', ')}` : '';
    })
    .filter(Boolean)
    .join('; ');
}
