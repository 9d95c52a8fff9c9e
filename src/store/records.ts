/**
 * The records the query operations return. Field names are the wire's element names with the
 * first letter in lower case (StudentId on the wire is studentId here); the bindings rely on it.
 */

export interface StudentInfo {
  studentRecId: number;
  studentId: number;
  nameAr: string;
  nameEn: string;
  gender: string;
  birthDate: string;
  phone: string | null;
  classId: number;
  classNameAr: string;
  classNameEn: string;
  gradeLevel: number;
  academicYear: string;
  enrolledOn: string;
  status: string;
}

export interface SubjectInfo {
  subjectId: number;
  code: string;
  nameAr: string;
  nameEn: string;
  teacherId: number;
  teacherNameAr: string;
  teacherNameEn: string;
}

export interface Mark {
  assessmentId: number;
  assessmentNameAr: string;
  assessmentNameEn: string;
  termId: number;
  termNameAr: string;
  termNameEn: string;
  heldOn: string;
  score: number;
  maxScore: number;
}

export interface AttendanceRecord {
  attendanceId: number;
  occurredOn: string;
  studentId: number;
  studentRecId: number;
  studentNameAr: string;
  studentNameEn: string;
  kind: string;
  absenceTypeId: number | null;
  absenceTypeNameAr: string | null;
  absenceTypeNameEn: string | null;
  minutesLate: number | null;
  note: string | null;
}

export interface GeneralNote {
  noteId: number;
  postedOn: string;
  title: string;
  text: string;
  teacherId: number;
  teacherNameAr: string;
  teacherNameEn: string;
}

export interface TeacherGroup {
  classId: number;
  classNameAr: string;
  classNameEn: string;
  gradeLevel: number;
  subjectId: number;
  subjectNameAr: string;
  subjectNameEn: string;
  studentCount: number;
}

export interface StudentNote {
  noteId: number;
  writtenOn: string;
  noteTypeId: number;
  noteTypeNameAr: string;
  noteTypeNameEn: string;
  isPositive: boolean;
  teacherId: number;
  authorNameAr: string;
  authorNameEn: string;
  text: string;
}

export interface ExamSlot {
  heldOn: string;
  startsAt: string;
  endsAt: string;
  subjectId: number;
  subjectNameAr: string;
  subjectNameEn: string;
  classId: number;
  classNameAr: string;
  classNameEn: string;
  room: string;
}

export interface ExamTimetable {
  examId: number;
  nameAr: string;
  nameEn: string;
  termId: number;
  termNameAr: string;
  termNameEn: string;
  slots: ExamSlot[];
}

export interface NoteType {
  noteTypeId: number;
  nameAr: string;
  nameEn: string;
  isPositive: boolean;
}
