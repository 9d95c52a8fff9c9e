import { counted } from '../lib/counted';
import { escapeHtml } from '../wire/html-escape';
import type { MinuteCalls } from './status-report';

/** The busiest operations get a colour each; the others are drawn together. */
const COLOURS = ['#1f5f99', '#e07b00', '#2e8b3a', '#c0392b', '#7d4fa8'];
const OTHERS_COLOUR = '#9a9a9a';
const OTHERS = 'other operations';

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 48;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 24;

/** HH:MM of an ISO time, in UTC as the rest of the page. */
const clock = (iso: string) => iso.slice(11, 16);

/**
 * The calls axis: from 0 to a round top in round steps (1, 2 or 5 times a power of ten), at most
 * five of them, so that the lines read 0, 20, 40, 60 rather than 0, 31.5, 63. Calls are whole, so a
 * step is never less than one.
 */
export function roundAxis(busiest: number): { readonly top: number; readonly step: number } {
  const rough = Math.max(1, busiest) / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(
    1,
    [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? rough,
  );
  return { top: Math.max(step, Math.ceil(busiest / step) * step), step };
}

/**
 * Calls per minute over the last hour as a stacked bar chart in inline SVG: drawn on the server,
 * with nothing fetched or run in the browser. Each bar's parts carry a title with the minute, the
 * operation and the count.
 */
export function callsChart(minutes: readonly MinuteCalls[]): string {
  const totals = new Map<string, number>();
  for (const { calls } of minutes) {
    for (const [operation, count] of Object.entries(calls)) totals.set(operation, (totals.get(operation) ?? 0) + count);
  }
  const coloured = [...totals.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, COLOURS.length)
    .map(([operation]) => operation);
  const colourOf = (operation: string) => COLOURS[coloured.indexOf(operation)] ?? OTHERS_COLOUR;
  const { top, step } = roundAxis(
    Math.max(0, ...minutes.map(({ calls }) => Object.values(calls).reduce((sum, n) => sum + n, 0))),
  );
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const barWidth = plotWidth / Math.max(1, minutes.length);
  const parts: string[] = [];

  for (let value = 0; value <= top; value += step) {
    const y = TOP + plotHeight * (1 - value / top);
    parts.push(
      `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}" stroke="#dddddd"/>`,
      `<text x="${LEFT - 6}" y="${y + 4}" text-anchor="end">${value.toLocaleString('en')}</text>`,
    );
  }
  minutes.forEach(({ minute, calls }, index) => {
    const x = LEFT + index * barWidth;
    if (index % 10 === 0) {
      parts.push(`<text x="${x}" y="${HEIGHT - 6}" text-anchor="start">${escapeHtml(clock(minute))}</text>`);
    }
    // Coloured operations at the bottom in their order, the others on top as one part.
    const stacked = new Map<string, number>(coloured.map((operation) => [operation, 0]));
    stacked.set(OTHERS, 0);
    for (const [operation, count] of Object.entries(calls)) {
      const key = coloured.includes(operation) ? operation : OTHERS;
      stacked.set(key, (stacked.get(key) ?? 0) + count);
    }
    let base = TOP + plotHeight;
    for (const [operation, count] of stacked) {
      if (count === 0) continue;
      const height = (plotHeight * count) / top;
      base -= height;
      const title = `${clock(minute)} UTC, ${operation}: ${counted(count, 'call')}`;
      const width = Math.max(1, barWidth - 1);
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${base.toFixed(1)}" width="${width.toFixed(1)}" ` +
          `height="${height.toFixed(1)}" fill="${colourOf(operation)}"><title>${escapeHtml(title)}</title></rect>`,
      );
    }
  });

  const legend = [...coloured, ...(totals.size > coloured.length ? [OTHERS] : [])]
    .map(
      (operation) =>
        `<li><span class="swatch" style="background:${colourOf(operation)}"></span>${escapeHtml(operation)}</li>`,
    )
    .join('');
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" ` +
    `height="${HEIGHT}" role="img" aria-labelledby="chart-title" font-family="sans-serif" font-size="11">` +
    `<title id="chart-title">Calls per minute by operation, last hour</title>${parts.join('')}</svg>` +
    `<ul class="legend">${legend}</ul>`
  );
}
