import type { ReportContent } from '../store/queries/report-content';
import { drawBilingual } from './bilingual-text';
import { DOCUMENT_TITLES, type DocumentKind } from './document-kinds';
import type { PageFlow } from './page-flow';
import { COLOURS, SECTION_GAP } from './report-style';

/** The top of the first page: school, document title with term and year, and who it is about. */

const LABEL_WIDTH = 88;
const INFO_ROW_HEIGHT = 17;

export function drawReportHeader(flow: PageFlow, kind: DocumentKind, content: ReportContent, issuedOn: string): void {
  const { canvas, left, width } = flow;
  const title = DOCUMENT_TITLES[kind];
  drawBilingual(canvas, content.school, left, flow.y + 16, width, { size: 15, weight: 'bold', color: COLOURS.accent });
  drawBilingual(
    canvas,
    {
      nameEn: `${title.nameEn} · ${content.term.nameEn} · ${content.academicYear}`,
      nameAr: `${title.nameAr} · ${content.term.nameAr} · ${content.academicYear}`,
    },
    left,
    flow.y + 36,
    width,
    { size: 11 },
  );
  canvas.line(left, flow.y + 46, left + width, flow.y + 46, COLOURS.accent, 1.2);
  flow.y += 52;

  const { student } = content;
  const rows: ReadonlyArray<[labelEn: string, valueEn: string, labelAr: string, valueAr: string]> = [
    ['Student', student.nameEn, 'الطالب', student.nameAr],
    ['Class', content.class.nameEn, 'الصف', content.class.nameAr],
    [
      'Student number',
      `${student.studentId} (record ${student.studentRecordId})`,
      'رقم الطالب',
      `${student.studentId} (رقم القيد ${student.studentRecordId})`,
    ],
    ['Date of issue', issuedOn, 'تاريخ الإصدار', issuedOn],
  ];
  const half = width / 2 - 8;
  for (const [labelEn, valueEn, labelAr, valueAr] of rows) {
    const baseline = flow.y + 12;
    canvas.text(labelEn, left, baseline, LABEL_WIDTH, {
      size: 8.5,
      direction: 'ltr',
      align: 'left',
      color: COLOURS.muted,
    });
    canvas.text(valueEn, left + LABEL_WIDTH, baseline, half - LABEL_WIDTH, {
      size: 10.5,
      direction: 'ltr',
      align: 'left',
      weight: 'bold',
    });
    canvas.text(labelAr, left + width - LABEL_WIDTH, baseline, LABEL_WIDTH, {
      size: 9,
      direction: 'rtl',
      align: 'right',
      color: COLOURS.muted,
    });
    canvas.text(valueAr, left + width - half, baseline, half - LABEL_WIDTH, {
      size: 11,
      direction: 'rtl',
      align: 'right',
      weight: 'bold',
    });
    flow.y += INFO_ROW_HEIGHT;
  }
  flow.y += SECTION_GAP;
}
