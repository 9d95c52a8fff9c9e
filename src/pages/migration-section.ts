import { escapeHtml } from '../wire/html-escape';
import type { MigrationOperationStatus, MigrationStatus } from './status-report';

const text = (value: string | number) => escapeHtml(String(value));
const BAR_WIDTH = 240;

/** The parts of a bar, in the order drawn, with their colour. */
const PARTS = [
  { key: 'identical', label: 'identical', colour: '#2e7d32' },
  { key: 'noisy', label: 'noisy', colour: '#9e9e9e' },
  { key: 'different', label: 'different', colour: '#c62828' },
  { key: 'legacyErrors', label: 'legacy errors', colour: '#ef6c00' },
] as const;

/** A bar of the operation's comparisons: identical, noisy, different and legacy errors, side by side. */
function bar(operation: MigrationOperationStatus): string {
  const total = PARTS.reduce((sum, part) => sum + operation[part.key], 0);
  if (total === 0) return '<span class="note">no comparisons</span>';
  let x = 0;
  const rects = PARTS.map((part) => {
    const width = (operation[part.key] / total) * BAR_WIDTH;
    const at = `x="${x.toFixed(1)}" width="${width.toFixed(1)}"`;
    const rect = `<rect class="${part.key}" ${at} height="12" fill="${part.colour}"/>`;
    x += width;
    return rect;
  });
  const label = PARTS.map((part) => `${operation[part.key]} ${part.label}`).join(', ');
  const size = `width="${BAR_WIDTH}" height="12"`;
  return `<svg class="migration-bar" role="img" aria-label="${text(label)}" ${size}>${rects.join('')}</svg>`;
}

/** The "Migration" section: every operation's route, a bar of its comparisons and their counts. */
export function migrationSection(migration: MigrationStatus | null): string {
  if (migration === null) return '';
  const rows = migration.operations.map(
    (operation) =>
      `<tr data-operation="${text(operation.operation)}"><td>${text(operation.operation)}</td>` +
      `<td>${text(operation.route)}</td><td>${bar(operation)}</td>` +
      [operation.compared, operation.identical, operation.noisy, operation.different, operation.legacyErrors]
        .concat([operation.dropped + operation.notCompared + operation.overBudget])
        .map((count) => `<td class="number">${count}</td>`)
        .join('') +
      '</tr>',
  );
  const head = ['Operation', 'Route', 'Agreement', 'Compared', 'Identical', 'Noisy', 'Different', 'Legacy errors']
    .concat(['Dropped, not compared, over budget'])
    .map((name) => `<th>${text(name)}</th>`)
    .join('');
  const legend = PARTS.map(
    (part) => `<li><span class="swatch" style="background:${part.colour}"></span>${text(part.label)}</li>`,
  ).join('');
  return `<h2>Migration</h2>
    <p class="note">Legacy service: ${text(migration.legacyUrl ?? 'none')}. Comparisons of the kept days, every binding;
      school-service shadow-report shows where answers differ.</p>
    <ul class="legend">${legend}</ul>
    <table id="migration"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
