import type { Kysely } from 'kysely';
import type { RunningService } from '../../src/service';
import type { Database } from '../../src/store/schema';
import { describeEachEngine } from '../support/engines';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';
import { asText, BINDINGS, callOperation, items } from '../support/typed-calls';

/**
 * The query operations against the demo school, through every binding of the typed profile and
 * JSON, on both engines. Expected values are read from the tables the generator wrote, with SQL
 * of the test's own, not through the service's queries.
 */

type Row = Record<string, string | null>;
interface Case {
  name: string;
  path: string;
  operation: string;
  parameters: (db: Kysely<Database>) => Promise<Record<string, string>>;
  /** The list's item element, or undefined for a single record. */
  itemElement?: string;
  expected: (db: Kysely<Database>, parameters: Record<string, string>) => Promise<Row[]>;
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

const CASES: Case[] = [
  {
    name: 'a student by record id',
    path: '/GetStudentsInformation.asmx',
    operation: 'GetStudentInfoByRecId',
    parameters: async () => ({ StudentRecId: '5' }),
    expected: async (db) => {
      const row = await db
        .selectFrom('student_records as r')
        .innerJoin('students as s', 's.id', 'r.student_id')
        .innerJoin('classes as c', 'c.id', 'r.class_id')
        .select(['r.id', 's.id as student', 's.name_ar', 's.name_en', 'c.id as class', 'c.name_ar as class_ar'])
        .where('r.id', '=', 5)
        .executeTakeFirstOrThrow();
      return [
        {
          StudentRecId: text(row.id),
          StudentId: text(row.student),
          NameAr: row.name_ar,
          NameEn: row.name_en,
          ClassId: text(row.class),
          ClassNameAr: row.class_ar,
        },
      ];
    },
  },
  {
    name: 'a student by student id',
    path: '/GetStudentsInformation.asmx',
    operation: 'GetStudentInfoById',
    parameters: async () => ({ StudentId: '5' }),
    expected: async (db) => {
      const row = await db
        .selectFrom('student_records as r')
        .innerJoin('students as s', 's.id', 'r.student_id')
        .select(['r.id', 's.id as student', 's.name_ar', 's.birth_date'])
        .where('s.id', '=', 5)
        .executeTakeFirstOrThrow();
      return [
        {
          StudentRecId: text(row.id),
          StudentId: text(row.student),
          NameAr: row.name_ar,
          BirthDate: row.birth_date,
          AcademicYear: '2026/2027',
        },
      ];
    },
  },
  {
    name: "a student's subjects",
    path: '/GetStudentsSubjects.asmx',
    operation: 'GetStudentSubjectsByID',
    itemElement: 'SubjectInfo',
    parameters: async () => ({ STDid: '40' }),
    expected: async (db) => {
      const rows = await db
        .selectFrom('student_records as r')
        .innerJoin('teacher_assignments as a', 'a.class_id', 'r.class_id')
        .innerJoin('subjects as s', 's.id', 'a.subject_id')
        .innerJoin('teachers as t', 't.id', 'a.teacher_id')
        .select(['s.id', 's.name_ar', 't.id as teacher', 't.name_en as teacher_en'])
        .where('r.student_id', '=', 40)
        .orderBy('s.id')
        .execute();
      return rows.map((row) => ({
        SubjectId: text(row.id),
        NameAr: row.name_ar,
        TeacherId: text(row.teacher),
        TeacherNameEn: row.teacher_en,
      }));
    },
  },
  {
    name: "a teacher's subjects in a class",
    path: '/GetTeacherSubjects.asmx',
    operation: 'GetTeacherSubjectsByID',
    itemElement: 'SubjectInfo',
    parameters: async (db) => {
      const assignment = await db
        .selectFrom('teacher_assignments')
        .select(['teacher_id', 'class_id'])
        .where('id', '=', 3)
        .executeTakeFirstOrThrow();
      return { Tid: String(assignment.teacher_id), TClassid: String(assignment.class_id) };
    },
    expected: async (db, parameters) => {
      const rows = await db
        .selectFrom('teacher_assignments as a')
        .innerJoin('subjects as s', 's.id', 'a.subject_id')
        .select(['s.id', 's.code'])
        .where('a.teacher_id', '=', Number(parameters.Tid))
        .where('a.class_id', '=', Number(parameters.TClassid))
        .orderBy('s.id')
        .execute();
      return rows.map((row) => ({ SubjectId: text(row.id), Code: row.code, TeacherId: parameters.Tid }));
    },
  },
  {
    name: "a student's marks in a subject",
    path: '/GetStudnetsMarks2.asmx',
    operation: 'GetStudentsMarks2',
    itemElement: 'Mark',
    parameters: async () => ({ StudnetID: '7', SubjectID: '3' }),
    expected: async (db) => {
      const rows = await db
        .selectFrom('marks as m')
        .innerJoin('student_records as r', 'r.id', 'm.student_record_id')
        .innerJoin('assessments as a', 'a.id', 'm.assessment_id')
        .select(['a.id', 'a.name_ar', 'a.held_on', 'm.score', 'a.max_score'])
        .where('r.student_id', '=', 7)
        .where('a.subject_id', '=', 3)
        .orderBy('a.held_on')
        .orderBy('a.id')
        .execute();
      return rows.map((row) => ({
        AssessmentId: text(row.id),
        AssessmentNameAr: row.name_ar,
        HeldOn: row.held_on,
        Score: text(Number(row.score)),
        MaxScore: text(Number(row.max_score)),
      }));
    },
  },
  {
    name: "a class's attendance audit",
    path: '/GetStudentsAudit.asmx',
    operation: 'GetAllAuditsByClassId',
    itemElement: 'AttendanceRecord',
    parameters: async () => ({ classId: '2' }),
    expected: async (db) => {
      const rows = await db
        .selectFrom('attendance as e')
        .innerJoin('student_records as r', 'r.id', 'e.student_record_id')
        .select(['e.id', 'e.occurred_on', 'r.student_id', 'e.kind', 'e.absence_type_id', 'e.minutes_late'])
        .where('r.class_id', '=', 2)
        .orderBy('e.occurred_on')
        .orderBy('r.student_id')
        .orderBy('e.id')
        .execute();
      return rows.map((row) => ({
        AttendanceId: text(row.id),
        OccurredOn: row.occurred_on,
        StudentId: text(row.student_id),
        Kind: row.kind,
        AbsenceTypeId: text(row.absence_type_id),
        MinutesLate: text(row.minutes_late),
      }));
    },
  },
  {
    name: "a class's general notes",
    path: '/GetGeneralNoteByClasssID.asmx',
    operation: 'GetStudentsGnote',
    itemElement: 'GeneralNote',
    parameters: async () => ({ ClassID: '3' }),
    expected: async (db) => {
      const rows = await db
        .selectFrom('class_notes')
        .select(['id', 'posted_on', 'title', 'text'])
        .where('class_id', '=', 3)
        .orderBy('posted_on', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((row) => ({ NoteId: text(row.id), PostedOn: row.posted_on, Title: row.title, Text: row.text }));
    },
  },
  {
    name: "a teacher's groups",
    path: '/GetTeacherGroups.asmx',
    operation: 'GetTeacherGrpupsByID',
    itemElement: 'TeacherGroup',
    parameters: async () => ({ Tid: '2' }),
    expected: async (db) => {
      const rows = await db
        .selectFrom('teacher_assignments as a')
        .innerJoin('classes as c', 'c.id', 'a.class_id')
        .innerJoin('grade_levels as g', 'g.id', 'c.grade_level_id')
        .select(['c.id', 'a.subject_id', 'g.ordinal'])
        .where('a.teacher_id', '=', 2)
        .orderBy('g.ordinal')
        .orderBy('c.id')
        .orderBy('a.subject_id')
        .execute();
      const counts = await Promise.all(
        rows.map((row) =>
          db
            .selectFrom('student_records')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('class_id', '=', row.id)
            .executeTakeFirstOrThrow(),
        ),
      );
      return rows.map((row, index) => ({
        ClassId: text(row.id),
        SubjectId: text(row.subject_id),
        GradeLevel: text(row.ordinal),
        StudentCount: text(Number(counts[index].n)),
      }));
    },
  },
  {
    name: "a student's notes",
    path: '/GetStudnetNote2.asmx',
    operation: 'GetStudentNoteByID',
    itemElement: 'StudentNote',
    parameters: async (db) => {
      const note = await db
        .selectFrom('student_notes')
        .select('student_id')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return { STDid: String(note.student_id) };
    },
    expected: async (db, parameters) => {
      const rows = await db
        .selectFrom('student_notes as n')
        .innerJoin('note_types as t', 't.id', 'n.note_type_id')
        .select(['n.id', 'n.written_on', 'n.note_type_id', 't.is_positive', 'n.text'])
        .where('n.student_id', '=', Number(parameters.STDid))
        .orderBy('n.written_on', 'desc')
        .orderBy('n.id', 'desc')
        .execute();
      return rows.map((row) => ({
        NoteId: text(row.id),
        WrittenOn: row.written_on,
        NoteTypeId: text(row.note_type_id),
        IsPositive: row.is_positive === 1 ? 'true' : 'false',
        Text: row.text,
      }));
    },
  },
  {
    name: 'the note types',
    path: '/GetNoteType.asmx',
    operation: 'GetStudentsNoteType',
    itemElement: 'NoteType',
    parameters: async () => ({}),
    expected: async (db) => {
      const rows = await db.selectFrom('note_types').selectAll().orderBy('id').execute();
      return rows.map((row) => ({
        NoteTypeId: text(row.id),
        NameAr: row.name_ar,
        NameEn: row.name_en,
        IsPositive: row.is_positive === 1 ? 'true' : 'false',
      }));
    },
  },
];

function project(record: Record<string, unknown>, fields: string[]): Row {
  const values = asText(record);
  return Object.fromEntries(fields.map((field) => [field, values[field] ?? null]));
}

describeEachEngine('query operations', (engine) => {
  let service: RunningService;
  let db: Kysely<Database>;
  beforeAll(async () => {
    const settings = engine.freshStoreSettings();
    const school = await openTestSchool(settings);
    await school.close();
    service = await startTestService({ ...settings, CONTRACT: 'typed', DEMO_DATA: 'off' }, { now: () => TEST_TODAY });
    db = service.store.db;
  });
  afterAll(() => service.close());

  describe.each(CASES)('$name', (testCase) => {
    test.each(BINDINGS)('over %s', async (binding) => {
      const parameters = await testCase.parameters(db);
      const expected = await testCase.expected(db, parameters);
      expect(expected.length).toBeGreaterThan(0);
      const outcome = await callOperation(service.url, testCase.path, testCase.operation, parameters, binding);
      expect(outcome.status).toBe(200);
      const fields = Object.keys(expected[0]);
      const actual = testCase.itemElement
        ? items(outcome.result, testCase.itemElement)
        : [outcome.result as Record<string, unknown>];
      expect(actual.map((record) => project(record, fields))).toEqual(expected);
    });
  });

  test.each(BINDINGS)("an exam's timetable over %s", async (binding) => {
    const slots = await db
      .selectFrom('exam_slots')
      .select(['held_on', 'class_id', 'subject_id', 'room'])
      .where('exam_id', '=', 4)
      .orderBy('held_on')
      .orderBy('starts_at')
      .orderBy('class_id')
      .orderBy('subject_id')
      .execute();
    const outcome = await callOperation(
      service.url,
      '/Scheduals.asmx',
      'GetExamTableByExamId',
      { ExamId: '4' },
      binding,
    );
    const timetable = outcome.result as Record<string, unknown>;
    expect(asText(timetable).ExamId).toBe('4');
    const actual = items(timetable.Slots, 'ExamSlot').map((slot) =>
      project(slot, ['HeldOn', 'ClassId', 'SubjectId', 'Room']),
    );
    expect(actual).toEqual(
      slots.map((slot) => ({
        HeldOn: slot.held_on,
        ClassId: String(slot.class_id),
        SubjectId: String(slot.subject_id),
        Room: slot.room,
      })),
    );
  });

  describe('unknown identifiers give an empty result, never a fault', () => {
    test.each(BINDINGS)('over %s', async (binding) => {
      const student = await callOperation(
        service.url,
        '/GetStudentsInformation.asmx',
        'GetStudentInfoById',
        { StudentId: '999999' },
        binding,
      );
      const marks = await callOperation(
        service.url,
        '/GetStudnetsMarks2.asmx',
        'GetStudentsMarks2',
        { StudnetID: 'abc', SubjectID: '1' },
        binding,
      );
      const exam = await callOperation(
        service.url,
        '/Scheduals.asmx',
        'GetExamTableByExamId',
        { ExamId: '-1' },
        binding,
      );
      expect([student.status, marks.status, exam.status]).toEqual([200, 200, 200]);
      expect(student.result).toBeUndefined();
      expect(items(marks.result, 'Mark')).toEqual([]);
      expect(exam.result).toBeUndefined();
    });
  });
});
