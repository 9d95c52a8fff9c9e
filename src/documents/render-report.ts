import type { ReportContent } from '../store/queries/report-content';
import { drawBilingual } from './bilingual-text';
import { DOCUMENT_TITLES, type DocumentKind } from './document-kinds';
import { drawMarksTable } from './marks-table';
import { PageFlow } from './page-flow';
import { PdfCanvas } from './pdf-canvas';
import { drawReportHeader } from './report-header';
import { COLOURS, FOOTER_HEIGHT, MARGIN } from './report-style';
import { drawSummaries } from './summary-tables';

/** Lays a report card or term book out as a PDF: header, marks, attendance and notes, page footers. */
export async function renderReport(kind: DocumentKind, content: ReportContent, issuedOn: string): Promise<Buffer> {
  const title = DOCUMENT_TITLES[kind];
  const canvas = new PdfCanvas({
    title: `${title.nameEn} · ${content.student.nameEn} · ${content.term.nameEn} ${content.academicYear}`,
    author: content.school.nameEn,
    issuedOn,
  });
  const flow = new PageFlow(canvas);
  drawReportHeader(flow, kind, content, issuedOn);
  drawMarksTable(flow, content.subjects);
  drawSummaries(flow, content);
  canvas.forEachPage((page, pages) => {
    const top = canvas.height - FOOTER_HEIGHT + 14;
    canvas.line(MARGIN, top, canvas.width - MARGIN, top, COLOURS.rule);
    drawBilingual(
      canvas,
      {
        nameEn: `${content.student.nameEn} · ${content.term.nameEn} · Page ${page} of ${pages}`,
        nameAr: `${content.student.nameAr} · ${content.term.nameAr} · صفحة ${page} من ${pages}`,
      },
      MARGIN,
      top + 14,
      canvas.width - 2 * MARGIN,
      { size: 7.5, color: COLOURS.muted },
    );
  });
  return canvas.finish();
}
