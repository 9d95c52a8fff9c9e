import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { ARABIC_STUDENT, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/** What each OneRoster file and each of the service's own files becomes in the store (docs/import.md). */
describeEachEngine('importing a OneRoster bundle', (engine) => {
  let store: Store;
  const idOf = async (kind: string, sourcedId: string) =>
    (
      await store.db
        .selectFrom('roster_ids')
        .select('id')
        .where('kind', '=', kind)
        .where('sourced_id', '=', sourcedId)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
    const outcome = await importBundle(store, writeBundle(smallSchool()));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
  });
  afterAll(() => store.close());

  test('the one org of type school is the school, with its English name from metadata.nameEn', async () => {
    expect(await store.db.selectFrom('schools').select(['name_ar', 'name_en']).execute()).toEqual([
      { name_ar: 'مدرسة الأمل', name_en: 'Al-Amal School' },
    ]);
  });

  test('a schoolYear is an academic year, terms sit in it, a grading period inside a term is that term', async () => {
    const year = await idOf('academic_years', 'y2026');
    const terms = await store.db.selectFrom('terms').selectAll().orderBy('starts_on').execute();
    expect(terms.map((term) => [term.name_ar, term.academic_year_id, term.starts_on, term.ends_on])).toEqual([
      ['الفصل الأول', year, '2026-09-01', '2027-01-15'],
      ['الفصل الثاني', year, '2027-01-16', '2027-06-30'],
    ]);
    const quiz = await store.db
      .selectFrom('assessments')
      .select('term_id')
      .where('id', '=', await idOf('assessments', 'li1'))
      .executeTakeFirstOrThrow();
    expect(quiz.term_id).toBe(await idOf('terms', 't1'));
  });

  test('courses are subjects; homerooms are classes with their grade level and section', async () => {
    const subjects = await store.db
      .selectFrom('subjects')
      .select(['code', 'name_ar', 'name_en'])
      .orderBy('code')
      .execute();
    expect(subjects).toEqual([
      { code: 'MTH', name_ar: 'الرياضيات', name_en: 'Mathematics' },
      { code: 'SCI', name_ar: 'العلوم', name_en: 'Science' },
    ]);
    const classes = await store.db
      .selectFrom('classes')
      .innerJoin('grade_levels', 'grade_levels.id', 'classes.grade_level_id')
      .select(['classes.section', 'classes.name_ar', 'grade_levels.ordinal', 'grade_levels.name_en as grade'])
      .orderBy('classes.section')
      .execute();
    expect(classes).toEqual([
      { section: '7A', name_ar: 'الصف السابع أ', ordinal: 7, grade: 'Grade 7' },
      { section: '7B', name_ar: 'الصف السابع ب', ordinal: 7, grade: 'Grade 7' },
    ]);
  });

  test('a scheduled class is a subject of its homeroom: named, or the one its students are in', async () => {
    const pairs = await store.db.selectFrom('class_subjects').select(['id', 'class_id', 'subject_id']).execute();
    expect(pairs).toHaveLength(3);
    const expected = [
      ['math-7a', 'hr-7a', 'c-math'],
      ['sci-7a', 'hr-7a', 'c-sci'],
      ['math-7b', 'hr-7b', 'c-math'],
    ];
    for (const [section, homeroom, course] of expected) {
      const id = await idOf('class_subjects', section);
      expect(pairs.find((pair) => pair.id === id)).toEqual({
        id,
        class_id: await idOf('classes', homeroom),
        subject_id: await idOf('subjects', course),
      });
    }
  });

  test('users by role: students, teachers, guardians; names joined, phones normalised as AuthCode does', async () => {
    const student = await store.db
      .selectFrom('students')
      .selectAll()
      .where('id', '=', await idOf('students', ARABIC_STUDENT.sourcedId))
      .executeTakeFirstOrThrow();
    expect(student).toMatchObject({
      name_ar: ARABIC_STUDENT.name,
      name_en: ARABIC_STUDENT.name,
      gender: 'M',
      birth_date: '2013-04-02',
      phone: null,
    });
    const sara = await store.db
      .selectFrom('students')
      .selectAll()
      .where('id', '=', await idOf('students', 's2'))
      .executeTakeFirstOrThrow();
    expect(sara).toMatchObject({ name_ar: 'Sara Ali', gender: 'F', phone: '+966551112222' });
    const teachers = await store.db.selectFrom('teachers').select(['name_ar', 'phone']).orderBy('name_ar').execute();
    expect(teachers).toEqual([
      { name_ar: 'Mona Saleh', phone: '+966501234567' },
      { name_ar: 'Yusuf Karim', phone: '+966507654321' },
    ]);
    const guardians = await store.db.selectFrom('guardians').select(['name_ar', 'phone']).orderBy('name_ar').execute();
    expect(guardians).toEqual([
      { name_ar: 'Huda Hassan', phone: '+966500000003' },
      { name_ar: 'Khalid Al-Otaibi', phone: '+966500000002' },
    ]);
    expect(await store.db.selectFrom('students').select('id').execute()).toHaveLength(3);
  });

  test('agentSourcedIds link students to guardians, with the guardian role as the relation', async () => {
    const links = await store.db
      .selectFrom('student_guardians')
      .selectAll()
      .orderBy('student_id')
      .orderBy('guardian_id')
      .execute();
    const g1 = await idOf('guardians', 'g1');
    const g2 = await idOf('guardians', 'g2');
    expect(links).toEqual(
      [
        { student_id: await idOf('students', 's1'), guardian_id: g1, relation: 'parent' },
        { student_id: await idOf('students', 's2'), guardian_id: g1, relation: 'parent' },
        { student_id: await idOf('students', 's3'), guardian_id: g2, relation: 'guardian' },
      ].sort((a, b) => a.student_id - b.student_id),
    );
  });

  test("enrollments: a student's homeroom enrolment is a record, a teacher's class an assignment", async () => {
    const records = await store.db.selectFrom('student_records').selectAll().orderBy('id').execute();
    expect(records).toHaveLength(3);
    const record = await store.db
      .selectFrom('student_records')
      .selectAll()
      .where('id', '=', await idOf('student_records', 'e1'))
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      student_id: await idOf('students', 's1'),
      class_id: await idOf('classes', 'hr-7a'),
      enrolled_on: '2026-09-01',
      status: 'active',
    });
    const e2 = await store.db
      .selectFrom('student_records')
      .selectAll()
      .where('id', '=', await idOf('student_records', 'e2'))
      .executeTakeFirstOrThrow();
    expect(e2.enrolled_on).toBe('2026-09-01');
    const assignments = await store.db
      .selectFrom('teacher_assignments')
      .select(['teacher_id', 'class_id', 'subject_id'])
      .execute();
    expect(assignments).toHaveLength(3);
    expect(assignments).toContainEqual({
      teacher_id: await idOf('teachers', 't-2'),
      class_id: await idOf('classes', 'hr-7a'),
      subject_id: await idOf('subjects', 'c-sci'),
    });
  });

  test('lineItems are assessments: category as kind, resultValueMax as maximum; results are marks', async () => {
    const assessment = await store.db
      .selectFrom('assessments')
      .selectAll()
      .where('id', '=', await idOf('assessments', 'li2'))
      .executeTakeFirstOrThrow();
    expect(assessment).toMatchObject({
      class_id: await idOf('classes', 'hr-7a'),
      subject_id: await idOf('subjects', 'c-sci'),
      term_id: await idOf('terms', 't1'),
      name_ar: 'Midterm',
      held_on: '2026-10-01',
      max_score: 30,
      category_id: await idOf('assessment_categories', 'cat-exam'),
    });
    const marks = await store.db
      .selectFrom('marks')
      .select(['assessment_id', 'student_record_id', 'score'])
      .orderBy('score')
      .execute();
    expect(marks).toEqual([
      {
        assessment_id: await idOf('assessments', 'li3'),
        student_record_id: await idOf('student_records', 'e3'),
        score: 7,
      },
      {
        assessment_id: await idOf('assessments', 'li1'),
        student_record_id: await idOf('student_records', 'e1'),
        score: 8.5,
      },
      {
        assessment_id: await idOf('assessments', 'li1'),
        student_record_id: await idOf('student_records', 'e2'),
        score: 9,
      },
      {
        assessment_id: await idOf('assessments', 'li2'),
        student_record_id: await idOf('student_records', 'e1'),
        score: 27,
      },
    ]);
  });

  test("the service's own files: attendance, notes, class notes, exams and timetables, devices", async () => {
    const attendance = await store.db.selectFrom('attendance').selectAll().orderBy('occurred_on').execute();
    expect(attendance.map(({ id, ...rest }) => rest)).toEqual([
      {
        student_record_id: await idOf('student_records', 'e1'),
        occurred_on: '2026-10-05',
        kind: 'absence',
        absence_type_id: await idOf('absence_types', 'at-sick'),
        minutes_late: null,
        note: null,
      },
      {
        student_record_id: await idOf('student_records', 'e3'),
        occurred_on: '2026-10-06',
        kind: 'lateness',
        absence_type_id: null,
        minutes_late: 15,
        note: 'Bus was late, "again"',
      },
    ]);
    expect(await store.db.selectFrom('note_types').select(['name_en', 'is_positive']).execute()).toEqual([
      { name_en: 'Excellent participation', is_positive: 1 },
    ]);
    expect(await store.db.selectFrom('student_notes').select(['text', 'written_on']).execute()).toEqual([
      { text: 'شارك بفاعلية، وأحسن', written_on: '2026-10-07' },
    ]);
    expect(await store.db.selectFrom('class_notes').select(['title', 'text']).execute()).toEqual([
      { title: 'رحلة', text: 'Line one,\nline "two"' },
    ]);
    expect(await store.db.selectFrom('exams').select(['name_ar', 'name_en', 'term_id']).execute()).toEqual([
      { name_ar: 'اختبارات منتصف الفصل', name_en: 'Midterms', term_id: await idOf('terms', 't1') },
    ]);
    expect(
      await store.db
        .selectFrom('exam_slots')
        .select(['held_on', 'starts_at', 'ends_at', 'room', 'subject_id'])
        .execute(),
    ).toEqual([
      {
        held_on: '2026-11-01',
        starts_at: '08:00',
        ends_at: '10:00',
        room: '101',
        subject_id: await idOf('subjects', 'c-math'),
      },
    ]);
    expect(
      await store.db.selectFrom('devices').select(['guardian_id', 'device_id', 'platform', 'enabled']).execute(),
    ).toEqual([{ guardian_id: await idOf('guardians', 'g1'), device_id: 'dev-1', platform: 'android', enabled: 1 }]);
  });

  test('the import is logged with its mode, source and counts', async () => {
    const log = await store.db.selectFrom('roster_imports').selectAll().execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ mode: 'bulk', rows_skipped: 0 });
    expect(log[0].rows_written).toBeGreaterThan(40);
  });

  test("a teacher's agentSourcedIds link no one", async () => {
    const links = () => store.db.selectFrom('student_guardians').selectAll().orderBy('student_id').execute();
    const before = await links();
    let bundle = withValue(smallSchool(), 'users', 't-1', 'agentSourcedIds', 'g2');
    bundle = withValue(bundle, 'users', 't-2', 'agentSourcedIds', 'g2');
    expect(problemsOf(await importBundle(store, writeBundle(bundle)))).toEqual([]);
    expect(await links()).toEqual(before);
  });
});
