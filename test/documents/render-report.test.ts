import { renderReport } from '../../src/documents/render-report';
import type { ReportContent, SubjectMarks } from '../../src/store/queries/report-content';
import {
  firstPageAsPng,
  pdfPageCount,
  pdfText,
  pdfWords,
  pngSize,
  readingKey,
  tableRow,
  PDF_TOOLS,
  type PlacedWord,
} from '../support/pdf-tools';
import { describeWithTools } from '../support/tools';

/** The layout on its own, from content made up here, read back with poppler's tools. */

const ASSESSMENTS = [
  ['اختبار قصير', 'Quiz', 10],
  ['اختبار منتصف الفصل', 'Midterm test', 30],
  ['الاختبار النهائي', 'Final exam', 60],
] as const;

function subject(
  subjectId: number,
  nameAr: string,
  nameEn: string,
  scores: ReadonlyArray<number | null>,
): SubjectMarks {
  return {
    subjectId,
    nameAr,
    nameEn,
    assessments: ASSESSMENTS.map(([assessmentAr, assessmentEn, maxScore], index) => ({
      assessmentId: subjectId * 10 + index,
      nameAr: assessmentAr,
      nameEn: assessmentEn,
      heldOn: `2026-10-0${index + 1}`,
      maxScore,
      score: scores[index],
    })),
  };
}

function content(overrides: Partial<ReportContent> = {}): ReportContent {
  return {
    school: { nameAr: 'مدارس النور الأهلية', nameEn: 'Al-Noor Private Schools' },
    student: { studentId: 5, studentRecordId: 17, nameAr: 'ملك بلال البلوشي', nameEn: 'Malak Bilal Al-Balushi' },
    class: { classId: 1, nameAr: 'الأول - أ', nameEn: 'Grade 1-A' },
    term: {
      termId: 1,
      nameAr: 'الفصل الدراسي الأول',
      nameEn: 'First term',
      startsOn: '2026-09-01',
      endsOn: '2026-12-31',
    },
    academicYear: '2026/2027',
    subjects: [
      subject(1, 'اللغة العربية', 'Arabic Language', [8, 24.5, 51]),
      subject(3, 'الرياضيات', 'Mathematics', [7.5, null, 48]),
    ],
    absencesByType: [{ typeId: 1, nameAr: 'غياب بعذر طبي', nameEn: 'Sick leave', count: 2 }],
    lateness: { count: 3, minutes: 45 },
    notesByType: [
      { typeId: 1, nameAr: 'مشاركة متميزة', nameEn: 'Excellent participation', isPositive: true, count: 4 },
    ],
    ...overrides,
  };
}

/** The words on the line of `anchor`, in the right (Arabic) half of the page, left to right. */
function arabicHalfOfLine(words: readonly PlacedWord[], anchor: string): string[] {
  const line = words.find((word) => readingKey(word.text) === readingKey(anchor));
  if (!line) throw new Error(`no word ${anchor} on the page`);
  return words
    .filter((word) => word.page === line.page && Math.abs(word.yMin - line.yMin) < 1 && word.xMin > 297)
    .sort((left, right) => left.xMin - right.xMin)
    .map((word) => readingKey(word.text));
}

describeWithTools(PDF_TOOLS)('a rendered report', () => {
  let report: Buffer;
  beforeAll(async () => {
    report = await renderReport('report-card', content(), '2026-11-22');
  });

  test('is one A4 page that pdftoppm draws', () => {
    expect(report.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPageCount(report)).toBe(1);
    expect(pngSize(firstPageAsPng(report))).toEqual({ width: 414, height: 585 });
  });

  test('names the student, class, term and date of issue in English and Arabic', () => {
    const text = pdfText(report);
    for (const english of [
      'Al-Noor Private Schools',
      'Malak Bilal Al-Balushi',
      'Grade 1-A',
      'Report card · First term · 2026/2027',
      'Date of issue',
      '2026-11-22',
    ]) {
      expect(text).toContain(english);
    }
    for (const arabic of [
      'مدارس النور الأهلية',
      'ملك بلال البلوشي',
      'بطاقة تقرير الطالب',
      'الفصل الدراسي الأول',
      'تاريخ الإصدار',
    ]) {
      expect(readingKey(text)).toContain(readingKey(arabic));
    }
  });

  test(
    'has a row per subject with each mark, the term total and its percentage; ' + 'a missing mark counts in neither',
    () => {
      const text = pdfText(report);
      const arabic = tableRow(text, 'Arabic Language');
      expect(arabic.slice(0, 6)).toEqual(['Arabic Language', '8', '24.5', '51', '83.5/100', '83.5%']);
      expect(readingKey(arabic[6])).toBe(readingKey('اللغة العربية'));
      expect(tableRow(text, 'Mathematics').slice(0, 6)).toEqual(['Mathematics', '7.5', '—', '48', '55.5/70', '79.3%']);
      expect(tableRow(text, 'Overall').slice(0, 3)).toEqual(['Overall', '139/170', '81.8%']);
    },
  );

  test('sums up attendance and notes by type', () => {
    const text = pdfText(report);
    // The two tables stand side by side, so one line of text can hold a row of each.
    const countBeside = (label: string) => {
      const row = tableRow(text, label);
      return row[row.indexOf(label) + 1];
    };
    expect([
      countBeside('Sick leave'),
      countBeside('Late arrivals'),
      countBeside('Minutes late'),
      countBeside('Excellent participation'),
    ]).toEqual(['2', '3', '45', '4']);
  });

  test(
    'places a mixed Arabic, Latin and digits line right to left, ' +
      'with the Latin word and the digits in their own order',
    async () => {
      const mixed = await renderReport(
        'report-card',
        content({ school: { nameAr: 'مدرسة ABC الدولية 2', nameEn: 'ABC International School 2' } }),
        '2026-11-22',
      );
      const words = pdfWords(mixed);
      expect(arabicHalfOfLine(words, 'ABC')).toEqual(['2', readingKey('الدولية'), 'ABC', readingKey('مدرسة')]);
      const title = arabicHalfOfLine(words, 'تقرير');
      expect(title[0]).toBe('2026/2027');
    },
  );

  test('is the same file for the same content and date, and another for another date', async () => {
    expect((await renderReport('report-card', content(), '2026-11-22')).equals(report)).toBe(true);
    expect((await renderReport('report-card', content(), '2026-11-23')).equals(report)).toBe(false);
  });
});

describeWithTools(PDF_TOOLS)('a rendered term book longer than a page', () => {
  test('continues the marks table on a second page under its header, and numbers the pages', async () => {
    const subjects = Array.from({ length: 45 }, (_, index) =>
      subject(index + 1, `مادة ${index + 1}`, `Course ${index + 1}`, [5, 15, 30]),
    );
    const book = await renderReport('term-book', content({ subjects }), '2026-11-22');
    expect(pdfPageCount(book)).toBe(2);
    const words = pdfWords(book);
    expect(words.filter((word) => word.text === 'Subject').map((word) => word.page)).toEqual([1, 2]);
    const text = pdfText(book);
    expect(text).toContain('Term book · First term · 2026/2027');
    expect(text).toContain('Course 45');
    expect(text).toMatch(/Page 1 of 2[\s\S]*Page 2 of 2/);
  });
});
