/** The look shared by every part of a report: page geometry, colours and number formats. */

export const MARGIN = 40;
/** The band at the foot of every page that holds the page numbers. */
export const FOOTER_HEIGHT = 48;
/** The gap between two stacked sections. */
export const SECTION_GAP = 18;
/** The line a section's heading takes above its table. */
export const HEADING_HEIGHT = 20;

export const COLOURS = {
  muted: '#5B6573',
  accent: '#1F3A5F',
  rule: '#C9D2DE',
  headerFill: '#E8EEF5',
  stripeFill: '#F6F8FA',
  positive: '#2E7D32',
  negative: '#C62828',
} as const;

/** Section headings: "Marks" and "الدرجات" on one line. */
export const HEADING_STYLE = { size: 11.5, weight: 'bold', color: COLOURS.accent } as const;

/** A score or count as a school writes it: no trailing zeros, at most two decimals. */
export function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

export function formatPercent(part: number, whole: number): string {
  return `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}
