import type { BilingualName } from '../store/queries/report-content';
import { hasRightToLeftLetter } from './bidi-text';
import { drawBilingual } from './bilingual-text';
import { PageFlow } from './page-flow';
import { PdfCanvas } from './pdf-canvas';
import { COLOURS, FOOTER_HEIGHT, HEADING_HEIGHT, HEADING_STYLE, MARGIN, SECTION_GAP } from './report-style';

/** One kind of data held about the person, as lines of text. */
export interface SummarySection {
  readonly title: BilingualName;
  readonly lines: readonly string[];
}

export interface SubjectSummary {
  readonly school: BilingualName;
  readonly person: BilingualName;
  readonly issuedOn: string;
  readonly sections: readonly SummarySection[];
}

const LINE_HEIGHT = 11;
/** A line longer than this is cut in the PDF; the JSON files beside it hold every value whole. */
const LONGEST_LINE = 140;

function shortened(line: string): string {
  return line.length <= LONGEST_LINE ? line : `${line.slice(0, LONGEST_LINE - 1)}…`;
}

function drawSection(flow: PageFlow, section: SummarySection): void {
  flow.makeRoom(HEADING_HEIGHT + LINE_HEIGHT);
  flow.y += HEADING_HEIGHT - 6;
  drawBilingual(flow.canvas, section.title, flow.left, flow.y, flow.width, HEADING_STYLE);
  flow.y += 6;
  flow.canvas.line(flow.left, flow.y, flow.left + flow.width, flow.y, COLOURS.rule);
  const lines = section.lines.length === 0 ? ['none · لا شيء'] : section.lines;
  for (const line of lines) {
    flow.makeRoom(LINE_HEIGHT);
    flow.y += LINE_HEIGHT;
    const rightToLeft = hasRightToLeftLetter(line) && !/[A-Za-z]/.test(line);
    flow.canvas.text(shortened(line), flow.left, flow.y, flow.width, {
      size: 7.5,
      direction: rightToLeft ? 'rtl' : 'ltr',
      align: rightToLeft ? 'right' : 'left',
    });
  }
  flow.y += SECTION_GAP;
}

/**
 * The one PDF of a subject export: everything held about a person, kind by kind, titled in Arabic
 * and English as the school's documents are. Readable by the family; the JSON files are complete.
 */
export async function renderSubjectSummary(summary: SubjectSummary): Promise<Buffer> {
  const canvas = new PdfCanvas({
    title: `Personal data held · ${summary.person.nameEn}`,
    author: summary.school.nameEn,
    issuedOn: summary.issuedOn,
  });
  const flow = new PageFlow(canvas);
  flow.y += 16;
  drawBilingual(
    canvas,
    { nameEn: 'Personal data held by the school', nameAr: 'البيانات الشخصية المحفوظة لدى المدرسة' },
    flow.left,
    flow.y,
    flow.width,
    { size: 14, weight: 'bold', color: COLOURS.accent },
  );
  flow.y += 20;
  drawBilingual(canvas, summary.person, flow.left, flow.y, flow.width, { size: 11, weight: 'bold' });
  flow.y += 14;
  drawBilingual(canvas, { nameEn: summary.issuedOn, nameAr: summary.issuedOn }, flow.left, flow.y, flow.width, {
    size: 8,
    color: COLOURS.muted,
  });
  flow.y += SECTION_GAP;
  for (const section of summary.sections) drawSection(flow, section);
  canvas.forEachPage((page, pages) => {
    const top = canvas.height - FOOTER_HEIGHT + 14;
    canvas.line(MARGIN, top, canvas.width - MARGIN, top, COLOURS.rule);
    drawBilingual(
      canvas,
      {
        nameEn: `${summary.school.nameEn} · Page ${page} of ${pages}`,
        nameAr: `${summary.school.nameAr} · صفحة ${page} من ${pages}`,
      },
      MARGIN,
      top + 14,
      canvas.width - 2 * MARGIN,
      { size: 7.5, color: COLOURS.muted },
    );
  });
  return canvas.finish();
}
