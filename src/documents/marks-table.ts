import type { AssessmentMark, BilingualName, SubjectMarks } from '../store/queries/report-content';
import { drawBilingual } from './bilingual-text';
import type { PageFlow } from './page-flow';
import type { FontWeight } from './fonts';
import type { PdfCanvas, TextStyle } from './pdf-canvas';
import { COLOURS, formatNumber, formatPercent, HEADING_HEIGHT, HEADING_STYLE, SECTION_GAP } from './report-style';

/**
 * The marks table: a row per subject, a column per assessment of the term, then the term total and
 * its percentage; English subject names on the left edge, Arabic on the right. A table longer than
 * the page continues on the next one under a repeated header.
 */

const SUBJECT_WIDTH = 108;
const TOTAL_WIDTH = 64;
const PERCENT_WIDTH = 50;
const HEADER_HEIGHT = 36;
const ROW_HEIGHT = 18;

/**
 * A column is an assessment name with its maximum score; the second assessment of the same name in
 * a subject gets a column of its own, so every mark has exactly one cell.
 */
interface AssessmentColumn extends BilingualName {
  readonly key: string;
  readonly maxScore: number;
}

function columnKey(assessment: AssessmentMark, occurrence: number): string {
  return JSON.stringify([assessment.nameEn, assessment.nameAr, assessment.maxScore, occurrence]);
}

/** Each assessment of a subject with its column key. */
function keyedAssessments(subject: SubjectMarks): Array<[key: string, assessment: AssessmentMark]> {
  const seen = new Map<string, number>();
  return subject.assessments.map((assessment) => {
    const name = columnKey(assessment, 0);
    const occurrence = seen.get(name) ?? 0;
    seen.set(name, occurrence + 1);
    return [columnKey(assessment, occurrence), assessment];
  });
}

/** The columns in the order they first appear, subject by subject, assessment by date. */
function assessmentColumns(subjects: readonly SubjectMarks[]): AssessmentColumn[] {
  const columns = new Map<string, AssessmentColumn>();
  for (const subject of subjects) {
    for (const [key, assessment] of keyedAssessments(subject)) {
      if (!columns.has(key))
        columns.set(key, { key, nameAr: assessment.nameAr, nameEn: assessment.nameEn, maxScore: assessment.maxScore });
    }
  }
  return [...columns.values()];
}

/** The sum of the recorded marks and of their maximums; an assessment without a mark counts in neither. */
function totals(assessments: readonly AssessmentMark[]): { score: number; maxScore: number } {
  return assessments.reduce(
    (sum, { score, maxScore }) =>
      score === null ? sum : { score: sum.score + score, maxScore: sum.maxScore + maxScore },
    { score: 0, maxScore: 0 },
  );
}

/** Where each column starts, from the left: English subject, assessments, total, percentage, Arabic subject. */
function columnEdges(left: number, width: number, assessmentCount: number) {
  const assessmentWidth = (width - 2 * SUBJECT_WIDTH - TOTAL_WIDTH - PERCENT_WIDTH) / Math.max(1, assessmentCount);
  const assessmentsLeft = left + SUBJECT_WIDTH;
  const totalLeft = assessmentsLeft + assessmentWidth * assessmentCount;
  return {
    assessmentWidth,
    assessmentsLeft,
    totalLeft,
    percentLeft: totalLeft + TOTAL_WIDTH,
    arabicLeft: left + width - SUBJECT_WIDTH,
  };
}

type Edges = ReturnType<typeof columnEdges>;

/** A number (or a dash) centred in its column, clear of the column's edges. */
function centred(
  canvas: PdfCanvas,
  value: string,
  x: number,
  baseline: number,
  width: number,
  style: Omit<TextStyle, 'direction' | 'align'>,
): void {
  canvas.text(value, x + 3, baseline, width - 6, { ...style, direction: 'ltr', align: 'center' });
}

function drawHeaderRow(flow: PageFlow, columns: readonly AssessmentColumn[], edges: Edges): void {
  const { canvas, left, width } = flow;
  const top = flow.y;
  canvas.box(left, top, width, HEADER_HEIGHT, COLOURS.headerFill);
  const middle = top + HEADER_HEIGHT / 2 + 3;
  canvas.text('Subject', left + 6, middle, SUBJECT_WIDTH - 12, {
    size: 9,
    direction: 'ltr',
    align: 'left',
    weight: 'bold',
  });
  canvas.text('المادة', edges.arabicLeft + 6, middle, SUBJECT_WIDTH - 12, {
    size: 9.5,
    direction: 'rtl',
    align: 'right',
    weight: 'bold',
  });
  const headed: Array<[BilingualName, string, number, number]> = [
    ...columns.map((column, index): [BilingualName, string, number, number] => [
      column,
      `/${formatNumber(column.maxScore)}`,
      edges.assessmentsLeft + index * edges.assessmentWidth,
      edges.assessmentWidth,
    ]),
    [{ nameAr: 'المجموع', nameEn: 'Total' }, '', edges.totalLeft, TOTAL_WIDTH],
    [{ nameAr: 'النسبة', nameEn: 'Percent' }, '%', edges.percentLeft, PERCENT_WIDTH],
  ];
  for (const [name, unit, x, columnWidth] of headed) {
    canvas.text(name.nameAr, x + 3, top + 11, columnWidth - 6, {
      size: 8.5,
      direction: 'rtl',
      align: 'center',
      weight: 'bold',
    });
    canvas.text(name.nameEn, x + 3, top + 21.5, columnWidth - 6, {
      size: 7.5,
      direction: 'ltr',
      align: 'center',
      weight: 'bold',
    });
    centred(canvas, unit, x, top + 31, columnWidth, { size: 7, color: COLOURS.muted });
  }
  flow.y += HEADER_HEIGHT;
}

function drawSubjectRow(
  flow: PageFlow,
  subject: SubjectMarks,
  columns: readonly AssessmentColumn[],
  edges: Edges,
  striped: boolean,
): void {
  const { canvas, left, width } = flow;
  const top = flow.y;
  if (striped) canvas.box(left, top, width, ROW_HEIGHT, COLOURS.stripeFill);
  const baseline = top + 12.5;
  canvas.text(subject.nameEn, left + 6, baseline, SUBJECT_WIDTH - 12, { size: 9, direction: 'ltr', align: 'left' });
  canvas.text(subject.nameAr, edges.arabicLeft + 6, baseline, SUBJECT_WIDTH - 12, {
    size: 9.5,
    direction: 'rtl',
    align: 'right',
  });
  const byKey = new Map(keyedAssessments(subject));
  columns.forEach((column, index) => {
    const assessment = byKey.get(column.key);
    const cell = assessment === undefined ? '' : assessment.score === null ? '—' : formatNumber(assessment.score);
    centred(canvas, cell, edges.assessmentsLeft + index * edges.assessmentWidth, baseline, edges.assessmentWidth, {
      size: 9,
    });
  });
  drawTotals(canvas, totals(subject.assessments), edges, baseline, 'regular');
  canvas.line(left, top + ROW_HEIGHT, left + width, top + ROW_HEIGHT, COLOURS.rule);
  flow.y += ROW_HEIGHT;
}

function drawTotals(
  canvas: PdfCanvas,
  sum: { score: number; maxScore: number },
  edges: Edges,
  baseline: number,
  weight: FontWeight,
): void {
  const recorded = sum.maxScore > 0;
  centred(
    canvas,
    recorded ? `${formatNumber(sum.score)}/${formatNumber(sum.maxScore)}` : '—',
    edges.totalLeft,
    baseline,
    TOTAL_WIDTH,
    { size: 9, weight },
  );
  centred(canvas, recorded ? formatPercent(sum.score, sum.maxScore) : '—', edges.percentLeft, baseline, PERCENT_WIDTH, {
    size: 9,
    weight,
  });
}

function drawOverallRow(flow: PageFlow, subjects: readonly SubjectMarks[], edges: Edges): void {
  const { canvas, left, width } = flow;
  const top = flow.y;
  canvas.box(left, top, width, ROW_HEIGHT, COLOURS.headerFill);
  const baseline = top + 12.5;
  canvas.text('Overall', left + 6, baseline, SUBJECT_WIDTH - 12, {
    size: 9,
    direction: 'ltr',
    align: 'left',
    weight: 'bold',
  });
  canvas.text('المعدل العام', edges.arabicLeft + 6, baseline, SUBJECT_WIDTH - 12, {
    size: 9.5,
    direction: 'rtl',
    align: 'right',
    weight: 'bold',
  });
  drawTotals(canvas, totals(subjects.flatMap((subject) => subject.assessments)), edges, baseline, 'bold');
  flow.y += ROW_HEIGHT;
}

export function drawMarksTable(flow: PageFlow, subjects: readonly SubjectMarks[]): void {
  const { canvas, left, width } = flow;
  // A heading never stands alone at the foot of a page: it keeps the table's header and two rows.
  flow.makeRoom(HEADING_HEIGHT + HEADER_HEIGHT + 2 * ROW_HEIGHT);
  drawBilingual(canvas, { nameEn: 'Marks', nameAr: 'الدرجات' }, left, flow.y + 12, width, HEADING_STYLE);
  flow.y += HEADING_HEIGHT;
  if (subjects.length === 0) {
    drawBilingual(
      canvas,
      { nameEn: 'No subjects recorded for this term.', nameAr: 'لا توجد مواد مسجلة لهذا الفصل.' },
      left,
      flow.y + 12,
      width,
      { size: 9.5, color: COLOURS.muted },
    );
    flow.y += ROW_HEIGHT + SECTION_GAP;
    return;
  }
  const columns = assessmentColumns(subjects);
  const edges = columnEdges(left, width, columns.length);
  drawHeaderRow(flow, columns, edges);
  subjects.forEach((subject, index) => {
    if (flow.makeRoom(ROW_HEIGHT)) drawHeaderRow(flow, columns, edges);
    drawSubjectRow(flow, subject, columns, edges, index % 2 === 1);
  });
  if (flow.makeRoom(ROW_HEIGHT)) drawHeaderRow(flow, columns, edges);
  drawOverallRow(flow, subjects, edges);
  flow.y += SECTION_GAP;
}
