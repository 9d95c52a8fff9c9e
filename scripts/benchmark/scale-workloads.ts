import type BetterSqlite3 from 'better-sqlite3';
import type { Operation } from './scenarios';

/**
 * What `npm run bench:scale` loads the service with: each query operation, whether it lists
 * records, and the identifiers its requests rotate over, drawn from the generated school in a
 * fixed, scattered order.
 */

/** How many different identifiers each operation's requests rotate over. */
const SAMPLE = 400;

export type Parameters = ReadonlyArray<readonly [string, string]>;

/** A query operation and the parameter sets its requests rotate over, all from the generated school. */
export interface Workload {
  readonly operation: Omit<Operation, 'parameters'>;
  /**
   * Whether its answer lists records: an array in the contract, or the exam's timetable, a record
   * whose slots are one. Issue 15 holds these within 2x their floor.
   */
  readonly list: boolean;
  readonly parameterSets: (database: BetterSqlite3.Database) => Parameters[];
}

const column = (database: BetterSqlite3.Database, sql: string) =>
  (database.prepare(sql).raw().all() as unknown[][]).map((row) => row.map(String));
const sample = (table: string, id = 'id') =>
  `SELECT ${id} FROM ${table} ORDER BY (${id} * 7919) % 10007 LIMIT ${SAMPLE}`;

export const WORKLOADS: readonly Workload[] = [
  {
    operation: {
      label: 'GetStudentInfoByRecId',
      endpoint: '/GetStudentsInformation.asmx',
      name: 'GetStudentInfoByRecId',
    },
    list: false,
    parameterSets: (db) => column(db, sample('student_records')).map(([id]) => [['StudentRecId', id]]),
  },
  {
    operation: { label: 'GetStudentInfoById', endpoint: '/GetStudentsInformation.asmx', name: 'GetStudentInfoById' },
    list: false,
    parameterSets: (db) => column(db, sample('students')).map(([id]) => [['StudentId', id]]),
  },
  {
    operation: {
      label: 'GetStudentSubjectsByID',
      endpoint: '/GetStudentsSubjects.asmx',
      name: 'GetStudentSubjectsByID',
    },
    list: true,
    parameterSets: (db) => column(db, sample('students')).map(([id]) => [['STDid', id]]),
  },
  {
    operation: {
      label: 'GetTeacherSubjectsByID',
      endpoint: '/GetTeacherSubjects.asmx',
      name: 'GetTeacherSubjectsByID',
    },
    list: true,
    parameterSets: (db) =>
      column(
        db,
        `SELECT DISTINCT teacher_id, class_id FROM teacher_assignments ORDER BY (id * 7919) % 10007 LIMIT ${SAMPLE}`,
      ).map(([teacher, klass]) => [
        ['Tid', teacher],
        ['TClassid', klass],
      ]),
  },
  {
    operation: { label: 'GetStudentsMarks2', endpoint: '/GetStudnetsMarks2.asmx', name: 'GetStudentsMarks2' },
    list: true,
    parameterSets: (db) =>
      column(
        db,
        'SELECT r.student_id, a.subject_id FROM marks m JOIN student_records r ON r.id = m.student_record_id ' +
          `JOIN assessments a ON a.id = m.assessment_id ORDER BY (m.id * 7919) % 10007 LIMIT ${SAMPLE}`,
      ).map(([student, subject]) => [
        ['StudnetID', student],
        ['SubjectID', subject],
      ]),
  },
  {
    operation: { label: 'GetAllAuditsByClassId', endpoint: '/GetStudentsAudit.asmx', name: 'GetAllAuditsByClassId' },
    list: true,
    parameterSets: (db) => column(db, sample('classes')).map(([id]) => [['classId', id]]),
  },
  {
    operation: { label: 'GetStudentsGnote', endpoint: '/GetGeneralNoteByClasssID.asmx', name: 'GetStudentsGnote' },
    list: true,
    parameterSets: (db) => column(db, sample('classes')).map(([id]) => [['ClassID', id]]),
  },
  {
    operation: { label: 'GetTeacherGrpupsByID', endpoint: '/GetTeacherGroups.asmx', name: 'GetTeacherGrpupsByID' },
    list: true,
    parameterSets: (db) => column(db, sample('teachers')).map(([id]) => [['Tid', id]]),
  },
  {
    operation: { label: 'GetStudentNoteByID', endpoint: '/GetStudnetNote2.asmx', name: 'GetStudentNoteByID' },
    list: true,
    parameterSets: (db) => column(db, sample('student_notes', 'student_id')).map(([id]) => [['STDid', id]]),
  },
  {
    operation: { label: 'GetExamTableByExamId', endpoint: '/Scheduals.asmx', name: 'GetExamTableByExamId' },
    list: true,
    parameterSets: (db) => column(db, sample('exams')).map(([id]) => [['ExamId', id]]),
  },
  {
    operation: { label: 'GetStudentsNoteType', endpoint: '/GetNoteType.asmx', name: 'GetStudentsNoteType' },
    list: true,
    parameterSets: () => [[]],
  },
];
