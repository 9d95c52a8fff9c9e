import { createHash } from 'node:crypto';
import { issueDocument } from '../../src/documents/issue-document';
import { clearSchool } from '../../src/store/clear-school';
import type { Store } from '../../src/store/open-store';
import type { ReportSubject } from '../../src/store/queries/report-content';
import { describeEachEngine } from '../support/engines';
import { firstPageAsPng, pdfPageCount, pdfText, pngSize, readingKey, tableRow, PDF_TOOLS } from '../support/pdf-tools';
import { openTestSchool, TEST_TODAY } from '../support/stores';
import { describeWithTools } from '../support/tools';

/**
 * Report cards and term books from the demo school, on both engines: what they show is read
 * back with poppler and compared with the tables, read with SQL of the test's own; and they are
 * issued once per content, stored with their hash.
 */

const TODAY = TEST_TODAY.toISOString().slice(0, 10);
const FIRST_TERM = 1;
const RECORD = 17;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const formatted = (value: number) => String(Math.round(value * 100) / 100);

describeWithTools(PDF_TOOLS)('issued documents', () => {
  describeEachEngine('issued documents', (engine) => {
    let store: Store;
    let subject: ReportSubject;
    beforeAll(async () => {
      store = await openTestSchool(engine.freshStoreSettings());
      const record = await store.db
        .selectFrom('student_records')
        .select('class_id')
        .where('id', '=', RECORD)
        .executeTakeFirstOrThrow();
      subject = { studentRecordId: RECORD, classId: record.class_id, termId: FIRST_TERM };
    });
    afterAll(() => store.close());

    const issue = async (kind: 'report-card' | 'term-book', report: ReportSubject, today = TODAY) => {
      const document = await issueDocument(store, kind, report, today);
      if (!document) throw new Error('no document issued');
      return document;
    };
    const storedCount = async () =>
      Number(
        (
          await store.db
            .selectFrom('generated_documents')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('student_record_id', '=', RECORD)
            .executeTakeFirstOrThrow()
        ).count,
      );

    test(
      'a report card shows the student in both languages, ' + 'and every subject with its marks from the store',
      async () => {
        const document = await issue('report-card', subject);
        const student = await store.db
          .selectFrom('student_records as r')
          .innerJoin('students as s', 's.id', 'r.student_id')
          .select(['s.id', 's.name_ar', 's.name_en'])
          .where('r.id', '=', RECORD)
          .executeTakeFirstOrThrow();
        expect([document.fileName, document.contentType, document.size]).toEqual([
          `report-card-${student.id}-term-1.pdf`,
          'application/pdf',
          document.content.length,
        ]);
        expect(document.contentHash).toBe(sha256(document.content));
        expect(pdfPageCount(document.content)).toBe(1);
        expect(pngSize(firstPageAsPng(document.content)).width).toBeGreaterThan(0);

        const text = pdfText(document.content);
        expect(text).toContain(student.name_en);
        expect(readingKey(text)).toContain(readingKey(student.name_ar));
        const marks = await store.db
          .selectFrom('assessments as a')
          .innerJoin('subjects as s', 's.id', 'a.subject_id')
          .innerJoin('marks as m', (join) =>
            join.onRef('m.assessment_id', '=', 'a.id').on('m.student_record_id', '=', RECORD),
          )
          .select(['s.id', 's.name_en', 's.name_ar', 'm.score', 'a.max_score'])
          .where('a.class_id', '=', subject.classId)
          .where('a.term_id', '=', FIRST_TERM)
          .orderBy('s.id')
          .orderBy('a.held_on')
          .orderBy('a.id')
          .execute();
        const subjectNames = [...new Set(marks.map((mark) => mark.name_en))];
        expect(subjectNames.length).toBeGreaterThanOrEqual(8);
        for (const name of subjectNames) {
          const own = marks.filter((mark) => mark.name_en === name);
          const total = own.reduce((sum, mark) => sum + Number(mark.score), 0);
          const maximum = own.reduce((sum, mark) => sum + Number(mark.max_score), 0);
          const row = tableRow(text, name);
          expect(row.slice(0, own.length + 2)).toEqual([
            name,
            ...own.map((mark) => formatted(Number(mark.score))),
            `${formatted(total)}/${formatted(maximum)}`,
          ]);
          expect(readingKey(row[row.length - 1])).toBe(readingKey(own[0].name_ar));
        }
      },
    );

    test(
      'asking again when nothing changed returns the stored document, ' + 'on a later day too, dated its first issue',
      async () => {
        const first = await issue('report-card', subject);
        const count = await storedCount();
        const later = await issue('report-card', subject, '2026-12-06');
        expect(later.content.equals(first.content)).toBe(true);
        expect([later.contentHash, later.issuedOn]).toEqual([first.contentHash, TODAY]);
        expect(pdfText(later.content)).toContain(TODAY);
        expect(await storedCount()).toBe(count);
      },
    );

    test('a change of a mark gives a new document showing the new mark, stored beside the old one', async () => {
      const before = await issue('report-card', subject);
      const count = await storedCount();
      const mark = await store.db
        .selectFrom('marks as m')
        .innerJoin('assessments as a', 'a.id', 'm.assessment_id')
        .innerJoin('subjects as s', 's.id', 'a.subject_id')
        .select(['m.id', 's.name_en'])
        .where('m.student_record_id', '=', RECORD)
        .where('a.term_id', '=', FIRST_TERM)
        .orderBy('s.id')
        .orderBy('a.held_on')
        .executeTakeFirstOrThrow();
      await store.db.updateTable('marks').set({ score: 9.25 }).where('id', '=', mark.id).execute();
      const after = await issue('report-card', subject, '2026-11-23');
      expect(after.contentHash).not.toBe(before.contentHash);
      expect(after.issuedOn).toBe('2026-11-23');
      expect(tableRow(pdfText(after.content), mark.name_en)[1]).toBe('9.25');
      expect(await storedCount()).toBe(count + 1);
    });

    const CHANGES: ReadonlyArray<[what: string, change: (store: Store) => Promise<unknown>]> = [
      [
        'an added absence',
        (changed) =>
          changed.db
            .insertInto('attendance')
            .values({
              student_record_id: RECORD,
              occurred_on: '2026-11-02',
              kind: 'absence',
              absence_type_id: 2,
              minutes_late: null,
              note: null,
            })
            .execute(),
      ],
      [
        'an added lateness',
        (changed) =>
          changed.db
            .insertInto('attendance')
            .values({
              student_record_id: RECORD,
              occurred_on: '2026-11-03',
              kind: 'lateness',
              absence_type_id: null,
              minutes_late: 12,
              note: null,
            })
            .execute(),
      ],
      [
        'an added note',
        async (changed) => {
          const record = await changed.db
            .selectFrom('student_records')
            .select('student_id')
            .where('id', '=', RECORD)
            .executeTakeFirstOrThrow();
          await changed.db
            .insertInto('student_notes')
            .values({
              student_id: record.student_id,
              note_type_id: 1,
              teacher_id: 1,
              written_on: '2026-11-04',
              text: 'أحسنت',
            })
            .execute();
        },
      ],
      [
        'a renamed student',
        async (changed) => {
          const record = await changed.db
            .selectFrom('student_records')
            .select('student_id')
            .where('id', '=', RECORD)
            .executeTakeFirstOrThrow();
          await changed.db
            .updateTable('students')
            .set({ name_en: 'Renamed Student' })
            .where('id', '=', record.student_id)
            .execute();
        },
      ],
      [
        'a renamed term',
        (changed) =>
          changed.db.updateTable('terms').set({ name_ar: 'الفصل الأول' }).where('id', '=', FIRST_TERM).execute(),
      ],
      [
        'a renamed school',
        (changed) => changed.db.updateTable('schools').set({ name_en: 'Al-Noor Schools' }).execute(),
      ],
    ];

    test.each(CHANGES)('%s gives a new document', async (_what, change) => {
      const before = await issue('report-card', subject);
      await change(store);
      const after = await issue('report-card', subject);
      expect(after.contentHash).not.toBe(before.contentHash);
    });

    test('the term book of a record is the given term, across all its assessments', async () => {
      const book = await issue('term-book', { ...subject, termId: 2 });
      expect(book.fileName).toMatch(/^term-book-\d+-term-2\.pdf$/);
      const text = pdfText(book.content);
      expect(text).toContain('Term book · Second term · 2026/2027');
      const finals = await store.db
        .selectFrom('assessments as a')
        .innerJoin('marks as m', 'm.assessment_id', 'a.id')
        .innerJoin('subjects as s', 's.id', 'a.subject_id')
        .select(['s.name_en', 'm.score'])
        .where('m.student_record_id', '=', RECORD)
        .where('a.term_id', '=', 2)
        .where('a.name_en', '=', 'Final exam')
        .execute();
      for (const final of finals) expect(tableRow(text, final.name_en)[3]).toBe(formatted(Number(final.score)));
    });

    test('two requests at once for a new document store it once, and both answer with the stored file', async () => {
      const count = await storedCount();
      const [one, other] = await Promise.all([
        issue('term-book', { ...subject, termId: 3 }),
        issue('term-book', { ...subject, termId: 3 }),
      ]);
      expect(one.content.equals(other.content)).toBe(true);
      expect(await storedCount()).toBe(count + 1);
    });

    test('a record in another class, an unknown record, or a term of another year gives nothing', async () => {
      await store.db
        .insertInto('academic_years')
        .values({ id: 2, name: '2027/2028', starts_on: '2027-09-01', ends_on: '2028-06-30' })
        .execute();
      await store.db
        .insertInto('terms')
        .values({
          id: 4,
          academic_year_id: 2,
          name_ar: 'الفصل الأول',
          name_en: 'First term',
          starts_on: '2027-09-01',
          ends_on: '2027-12-31',
        })
        .execute();
      expect(
        await issueDocument(store, 'term-book', { ...subject, classId: subject.classId + 1 }, TODAY),
      ).toBeUndefined();
      expect(await issueDocument(store, 'term-book', { ...subject, studentRecordId: 999_999 }, TODAY)).toBeUndefined();
      expect(await issueDocument(store, 'term-book', { ...subject, termId: 4 }, TODAY)).toBeUndefined();
    });

    test('clearing the school (demo-data --replace) removes its documents with it', async () => {
      expect(await storedCount()).toBeGreaterThan(0);
      await clearSchool(store);
      expect(await store.db.selectFrom('generated_documents').select('id').execute()).toEqual([]);
    });
  });
});
