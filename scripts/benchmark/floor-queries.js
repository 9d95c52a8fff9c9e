/**
 * The floor server's reads: for each query operation, prepared statements in raw mode (rows as
 * arrays of values) that read the rows the service reads for it (the same columns, joins, filters
 * and order as src/store/queries/*.ts, written here by hand; an operation that runs several
 * queries runs the same statements in sequence). They are kept apart from the service's code on
 * purpose: the floor is what reading those rows costs with nothing of the service around it.
 *
 * What the service keeps in memory, the floor knows too: the current academic year is found once,
 * as the service's copy of the reference data finds it (the year started last; before the first,
 * the first). The service also reads the reference data's version on every call that needs the
 * year or the note types; the floor does not (that lookup is part of what the service adds).
 *
 * Each operation is { element, run(values) }: run reads its rows for the request's parameter
 * values (numbers, in the order the operation's parameters are sent) and returns how many records
 * the answer lists, which the server checks once against the `<element>`s in the service's answer.
 */

const STUDENT_INFO = `select record.id, student.id, student.name_ar, student.name_en, student.gender,
    student.birth_date, student.phone, class.id, class.name_ar, class.name_en, grade.ordinal, year.name,
    record.enrolled_on, record.status
  from student_records as record
  inner join students as student on student.id = record.student_id
  inner join classes as class on class.id = record.class_id
  inner join grade_levels as grade on grade.id = class.grade_level_id
  inner join academic_years as year on year.id = record.academic_year_id`;

const CLASS_SUBJECTS = `select subject.id, subject.code, subject.name_ar, subject.name_en, teacher.id,
    teacher.name_ar, teacher.name_en
  from teacher_assignments as assignment
  inner join subjects as subject on subject.id = assignment.subject_id
  inner join teachers as teacher on teacher.id = assignment.teacher_id`;

const SQL = {
  infoByRecord: `${STUDENT_INFO} where record.id = ?`,
  infoByStudent: `${STUDENT_INFO} where student.id = ?
    order by case when record.academic_year_id = ? then 0 else 1 end, year.starts_on desc limit 1`,
  studentSubjects: `${CLASS_SUBJECTS} where assignment.class_id =
      (select class_id from student_records where student_id = ? and academic_year_id = ? limit 1)
    order by subject.id, teacher.id`,
  teacherClassSubjects: `${CLASS_SUBJECTS} where assignment.class_id = ? and assignment.teacher_id = ?
    order by subject.id, teacher.id`,
  marks: `select assessment.id, assessment.name_ar, assessment.name_en, term.id, term.name_ar, term.name_en,
      assessment.held_on, mark.score, assessment.max_score
    from marks as mark
    inner join student_records as record on record.id = mark.student_record_id
    inner join assessments as assessment on assessment.id = mark.assessment_id
    inner join terms as term on term.id = assessment.term_id
    where record.student_id = ? and record.academic_year_id = ? and assessment.subject_id = ?
    order by assessment.held_on, assessment.id`,
  // The audit's three reads, as rows rather than the service's JSON arrays; it orders them in JavaScript.
  attendance: `select entry.id, entry.occurred_on, entry.student_record_id, entry.kind, entry.absence_type_id,
      entry.minutes_late, entry.note
    from attendance as entry inner join student_records as record on record.id = entry.student_record_id
    where record.class_id = ?`,
  classStudents: `select record.id, student.id, student.name_ar, student.name_en
    from student_records as record inner join students as student on student.id = record.student_id
    where record.class_id = ?`,
  absenceTypes: 'select id, name_ar, name_en from absence_types',
  generalNotes: `select note.id, note.posted_on, note.title, note.text, teacher.id, teacher.name_ar, teacher.name_en
    from class_notes as note inner join teachers as teacher on teacher.id = note.teacher_id
    where note.class_id = ? order by note.posted_on desc, note.id desc`,
  teacherGroups: `select class.id, class.name_ar, class.name_en, grade.ordinal, subject.id, subject.name_ar,
      subject.name_en,
      (select count(*) from student_records as record where record.class_id = class.id and record.status = ?)
    from teacher_assignments as assignment
    inner join classes as class on class.id = assignment.class_id
    inner join grade_levels as grade on grade.id = class.grade_level_id
    inner join subjects as subject on subject.id = assignment.subject_id
    where assignment.teacher_id = ? and class.academic_year_id = ?
    order by grade.ordinal, class.id, subject.id`,
  studentNotes: `select note.id, note.written_on, type.id, type.name_ar, type.name_en, type.is_positive, teacher.id,
      teacher.name_ar, teacher.name_en, note.text
    from student_notes as note
    inner join note_types as type on type.id = note.note_type_id
    inner join teachers as teacher on teacher.id = note.teacher_id
    where note.student_id = ? order by note.written_on desc, note.id desc`,
  exam: `select exam.id, exam.name_ar, exam.name_en, term.id, term.name_ar, term.name_en
    from exams as exam inner join terms as term on term.id = exam.term_id where exam.id = ?`,
  examSlots: `select slot.held_on, slot.starts_at, slot.ends_at, subject.id, subject.name_ar, subject.name_en,
      class.id, class.name_ar, class.name_en, slot.room
    from exam_slots as slot
    inner join subjects as subject on subject.id = slot.subject_id
    inner join classes as class on class.id = slot.class_id
    where slot.exam_id = ? order by slot.held_on, slot.starts_at, class.id, subject.id`,
  noteTypes: 'select id, name_ar, name_en, is_positive from note_types order by id',
};

/** The academic year in force today, as src/store/queries/calendar.ts decides it. */
function currentAcademicYearId(database) {
  const today = new Date().toISOString().slice(0, 10);
  const years = database.prepare('select id, starts_on from academic_years order by starts_on, id').raw(true).all();
  let found = years[0];
  for (const year of years) {
    if (year[1] > today) break;
    found = year;
  }
  return found === undefined ? null : found[0];
}

function floorQueries(database) {
  const statement = {};
  for (const [name, sql] of Object.entries(SQL)) statement[name] = database.prepare(sql).raw(true);
  const yearId = currentAcademicYearId(database);
  return {
    GetStudentInfoByRecId: {
      element: 'GetStudentInfoByRecIdResult',
      run: ([recordId]) => statement.infoByRecord.all(recordId).length,
    },
    GetStudentInfoById: {
      element: 'GetStudentInfoByIdResult',
      run: ([studentId]) => statement.infoByStudent.all(studentId, yearId).length,
    },
    GetStudentSubjectsByID: {
      element: 'SubjectInfo',
      run: ([studentId]) => statement.studentSubjects.all(studentId, yearId).length,
    },
    GetTeacherSubjectsByID: {
      element: 'SubjectInfo',
      run: ([teacherId, classId]) => statement.teacherClassSubjects.all(classId, teacherId).length,
    },
    GetStudentsMarks2: {
      element: 'Mark',
      run: ([studentId, subjectId]) => statement.marks.all(studentId, yearId, subjectId).length,
    },
    GetAllAuditsByClassId: {
      element: 'AttendanceRecord',
      run: ([classId]) => {
        const entries = statement.attendance.all(classId);
        statement.classStudents.all(classId);
        statement.absenceTypes.all();
        return entries.length;
      },
    },
    GetStudentsGnote: {
      element: 'GeneralNote',
      run: ([classId]) => statement.generalNotes.all(classId).length,
    },
    GetTeacherGrpupsByID: {
      element: 'TeacherGroup',
      run: ([teacherId]) => statement.teacherGroups.all('active', teacherId, yearId).length,
    },
    GetStudentNoteByID: {
      element: 'StudentNote',
      run: ([studentId]) => statement.studentNotes.all(studentId).length,
    },
    GetExamTableByExamId: {
      element: 'ExamSlot',
      run: ([examId]) => (statement.exam.all(examId).length === 0 ? 0 : statement.examSlots.all(examId).length),
    },
    GetStudentsNoteType: {
      element: 'NoteType',
      run: () => statement.noteTypes.all().length,
    },
  };
}

module.exports = { floorQueries };
