import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RunningService } from '../../src/service';
import type { Database } from '../../src/store/schema';
import { describeEachEngine } from '../support/engines';
import { pdfPageCount, pdfText, readingKey, PDF_TOOLS } from '../support/pdf-tools';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { openTestSchool, TEST_TODAY } from '../support/stores';
import { describeWithTools } from '../support/tools';
import { asText, BINDINGS, callOperation } from '../support/typed-calls';

/**
 * GenerateReport and GetBookPdfByTerm through the service on a real port, on both engines: the
 * typed profile and JSON carry the PDF with its file name, content type and size; the documented
 * profile answers the spec's empty response but issues and stores the document all the same.
 */

interface Enrolment {
  studentId: number;
  recordId: number;
  classId: number;
  nameAr: string;
  nameEn: string;
}

async function enrolment(db: Kysely<Database>, studentId: number): Promise<Enrolment> {
  const row = await db
    .selectFrom('student_records as r')
    .innerJoin('students as s', 's.id', 'r.student_id')
    .select(['r.id', 'r.class_id', 's.name_ar', 's.name_en'])
    .where('s.id', '=', studentId)
    .executeTakeFirstOrThrow();
  return { studentId, recordId: row.id, classId: row.class_id, nameAr: row.name_ar, nameEn: row.name_en };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The ReportDocument's fields as text, whatever the binding (indented XML documents carry layout text too). */
function documentFields(result: unknown): Record<string, string | null> {
  const values = asText(result as Record<string, unknown>);
  return Object.fromEntries(
    ['FileName', 'ContentType', 'Size', 'Content'].map((field) => [field, values[field] ?? null]),
  );
}

describeWithTools(PDF_TOOLS)('report operations', () => {
  describeEachEngine('report operations', (engine) => {
    let typed: RunningService;
    let documented: RunningService;
    let db: Kysely<Database>;
    beforeAll(async () => {
      const settings = engine.freshStoreSettings();
      const school = await openTestSchool(settings);
      await school.close();
      // Two services on one store: the typed profile and the documented one.
      typed = await startTestService({ ...settings, CONTRACT: 'typed', DEMO_DATA: 'off' }, { now: () => TEST_TODAY });
      documented = await startTestService({ ...settings, DEMO_DATA: 'off' }, { now: () => TEST_TODAY });
      db = typed.store.db;
    });
    afterAll(async () => {
      await typed.close();
      await documented.close();
    });

    const generateReport = (
      student: Enrolment,
      binding: (typeof BINDINGS)[number],
      studentClass = String(student.classId),
    ) =>
      callOperation(
        typed.url,
        '/GenerateStudentReport.asmx',
        'GenerateReport',
        { studentId: String(student.studentId), studentClass },
        binding,
      );

    test(
      'typed SOAP 1.1 carries the report card as base64Binary ' + 'with its file name, content type and size',
      async () => {
        const student = await enrolment(db, 5);
        const outcome = await generateReport(student, 'soap11');
        expect(outcome.status).toBe(200);
        const result = outcome.result as Record<string, string>;
        expect(Object.keys(result)).toEqual(['FileName', 'ContentType', 'Size', 'Content']);
        const pdf = Buffer.from(result.Content, 'base64');
        expect([result.FileName, result.ContentType, result.Size]).toEqual([
          `report-card-5-term-1.pdf`,
          'application/pdf',
          String(pdf.length),
        ]);
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        expect(pdfPageCount(pdf)).toBe(1);
        const text = pdfText(pdf);
        expect(text).toContain(student.nameEn);
        expect(readingKey(text)).toContain(readingKey(student.nameAr));
      },
    );

    test('JSON carries {"d": {FileName, ContentType, Size, Content}} with the PDF in base64', async () => {
      const student = await enrolment(db, 5);
      const outcome = await generateReport(student, 'json');
      expect(outcome.contentType).toBe('application/json; charset=utf-8');
      const result = outcome.result as { FileName: string; ContentType: string; Size: number; Content: string };
      expect(typeof result.Size).toBe('number');
      expect(Buffer.from(result.Content, 'base64').length).toBe(result.Size);
      expect(pdfText(Buffer.from(result.Content, 'base64'))).toContain(student.nameEn);
    });

    test.each(BINDINGS)('every binding gives the same stored document, over %s', async (binding) => {
      const student = await enrolment(db, 6);
      const reference = documentFields((await generateReport(student, 'soap11')).result);
      expect(reference.Content).toMatch(/^JVBERi0/);
      expect(documentFields((await generateReport(student, binding)).result)).toEqual(reference);
    });

    test('the term book of a student record in its class for a term', async () => {
      const student = await enrolment(db, 7);
      for (const binding of ['soap11', 'json'] as const) {
        const outcome = await callOperation(
          typed.url,
          '/BookPdf.asmx',
          'GetBookPdfByTerm',
          { termId: '2', srid: String(student.recordId), classId: String(student.classId) },
          binding,
        );
        const result = outcome.result as Record<string, string>;
        expect(result.FileName).toBe('term-book-7-term-2.pdf');
        const text = pdfText(Buffer.from(result.Content, 'base64'));
        expect(text).toContain('Term book · Second term · 2026/2027');
        expect(text).toContain(student.nameEn);
      }
    });

    describe('identifiers that do not fit together give an empty result', () => {
      test.each(BINDINGS)('over %s', async (binding) => {
        const student = await enrolment(db, 5);
        const outcomes = await Promise.all([
          generateReport(student, binding, String(student.classId + 1)),
          generateReport(student, binding, 'A1'),
          callOperation(
            typed.url,
            '/BookPdf.asmx',
            'GetBookPdfByTerm',
            { termId: '1', srid: String(student.recordId), classId: String(student.classId + 1) },
            binding,
          ),
          callOperation(
            typed.url,
            '/BookPdf.asmx',
            'GetBookPdfByTerm',
            { termId: '9', srid: String(student.recordId), classId: String(student.classId) },
            binding,
          ),
        ]);
        expect(outcomes.map((outcome) => [outcome.status, outcome.result])).toEqual(
          outcomes.map(() => [200, undefined]),
        );
      });
    });

    test('the documented profile answers the empty response, and the document is issued and stored', async () => {
      const student = await enrolment(db, 8);
      const response = await soap11(
        `${documented.url}/GenerateStudentReport.asmx`,
        `<GenerateReport xmlns="${NS}"><studentId>${student.studentId}</studentId>` +
          `<studentClass>${student.classId}</studentClass></GenerateReport>`,
        `"${NS}GenerateReport"`,
      );
      expect(response.status).toBe(200);
      expect(response.text).toContain(`<soap:Body><GenerateReportResponse xmlns="${NS}" /></soap:Body>`);
      const stored = await db
        .selectFrom('generated_documents')
        .select(['kind', 'content_hash', 'file_name'])
        .where('student_record_id', '=', student.recordId)
        .execute();
      expect(stored).toEqual([
        {
          kind: 'report-card',
          content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          file_name: 'report-card-8-term-1.pdf',
        },
      ]);
      const typedAnswer = (await generateReport(student, 'soap11')).result as Record<string, string>;
      expect(sha256(Buffer.from(typedAnswer.Content, 'base64'))).toBe(stored[0].content_hash);
    });
  });
});
