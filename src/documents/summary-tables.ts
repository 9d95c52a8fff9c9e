import type { BilingualName, ReportContent } from '../store/queries/report-content';
import { drawBilingual } from './bilingual-text';
import type { PageFlow } from './page-flow';
import type { PdfCanvas } from './pdf-canvas';
import { COLOURS, formatNumber, HEADING_HEIGHT, HEADING_STYLE, SECTION_GAP } from './report-style';

/**
 * Attendance and notes side by side: each a small table of counts, English label on the left,
 * the count in the middle, Arabic label on the right. Kept together on one page.
 */

interface CountRow {
  readonly label: BilingualName;
  readonly count: number;
  readonly total?: boolean;
  /** A coloured mark before the label: positive or negative notes. */
  readonly marker?: string;
}

const ROW_HEIGHT = 16;
const COLUMN_GAP = 16;
const MARKER_SIZE = 5;

function attendanceRows(content: ReportContent): CountRow[] {
  const absences = content.absencesByType.reduce((sum, type) => sum + type.count, 0);
  return [
    ...content.absencesByType.map((type) => ({ label: type, count: type.count })),
    { label: { nameEn: 'Absences in total', nameAr: 'مجموع أيام الغياب' }, count: absences, total: true },
    { label: { nameEn: 'Late arrivals', nameAr: 'مرات التأخر' }, count: content.lateness.count },
    { label: { nameEn: 'Minutes late', nameAr: 'دقائق التأخر' }, count: content.lateness.minutes },
  ];
}

function noteRows(content: ReportContent): CountRow[] {
  const notes = content.notesByType.reduce((sum, type) => sum + type.count, 0);
  return [
    ...content.notesByType.map((type) => ({
      label: type,
      count: type.count,
      marker: type.isPositive ? COLOURS.positive : COLOURS.negative,
    })),
    { label: { nameEn: 'Notes in total', nameAr: 'مجموع الملاحظات' }, count: notes, total: true },
  ];
}

function drawCountTable(
  canvas: PdfCanvas,
  x: number,
  top: number,
  width: number,
  heading: BilingualName,
  rows: readonly CountRow[],
): void {
  drawBilingual(canvas, heading, x, top + 12, width, HEADING_STYLE);
  const labelWidth = width * 0.42;
  rows.forEach((row, index) => {
    const rowTop = top + HEADING_HEIGHT + index * ROW_HEIGHT;
    if (row.total) canvas.box(x, rowTop, width, ROW_HEIGHT, COLOURS.headerFill);
    const baseline = rowTop + 11.5;
    const weight = row.total ? 'bold' : 'regular';
    const indent = row.marker ? MARKER_SIZE + 5 : 0;
    if (row.marker) canvas.box(x + 4, baseline - MARKER_SIZE - 1, MARKER_SIZE, MARKER_SIZE, row.marker);
    canvas.text(row.label.nameEn, x + 4 + indent, baseline, labelWidth - 4 - indent, {
      size: 8.5,
      direction: 'ltr',
      align: 'left',
      weight,
    });
    canvas.text(formatNumber(row.count), x + labelWidth, baseline, width - 2 * labelWidth, {
      size: 9,
      direction: 'ltr',
      align: 'center',
      weight,
    });
    canvas.text(row.label.nameAr, x + width - labelWidth, baseline, labelWidth - 4, {
      size: 9,
      direction: 'rtl',
      align: 'right',
      weight,
    });
    canvas.line(x, rowTop + ROW_HEIGHT, x + width, rowTop + ROW_HEIGHT, COLOURS.rule);
  });
}

export function drawSummaries(flow: PageFlow, content: ReportContent): void {
  const attendance = attendanceRows(content);
  const notes = noteRows(content);
  const height = HEADING_HEIGHT + Math.max(attendance.length, notes.length) * ROW_HEIGHT;
  flow.makeRoom(height);
  const half = (flow.width - COLUMN_GAP) / 2;
  drawCountTable(flow.canvas, flow.left, flow.y, half, { nameEn: 'Attendance', nameAr: 'الحضور والغياب' }, attendance);
  drawCountTable(
    flow.canvas,
    flow.left + half + COLUMN_GAP,
    flow.y,
    half,
    { nameEn: 'Notes', nameAr: 'الملاحظات' },
    notes,
  );
  flow.y += height + SECTION_GAP;
}
