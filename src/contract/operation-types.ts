/**
 * The contract's types, generated from wsdl/typed/*.wsdl by `npm run contract:types`. Do not edit:
 * change the WSDL and generate again (a test fails while this file is stale).
 *
 * Element names become properties with a lower-case first letter (StudentId: studentId), as the
 * bindings read them. A field the WSDL declares nillable or minOccurs="0" may be null; a result
 * declared minOccurs="0" may be undefined, which answers with no result element.
 */

/** tns:ArrayOfAttendanceRecord */
export type ArrayOfAttendanceRecord = (AttendanceRecord | null)[];

/** tns:ArrayOfExamSlot */
export type ArrayOfExamSlot = (ExamSlot | null)[];

/** tns:ArrayOfGeneralNote */
export type ArrayOfGeneralNote = (GeneralNote | null)[];

/** tns:ArrayOfMark */
export type ArrayOfMark = (Mark | null)[];

/** tns:ArrayOfNoteType */
export type ArrayOfNoteType = (NoteType | null)[];

/** tns:ArrayOfStudentNote */
export type ArrayOfStudentNote = (StudentNote | null)[];

/** tns:ArrayOfSubjectInfo */
export type ArrayOfSubjectInfo = (SubjectInfo | null)[];

/** tns:ArrayOfTeacherGroup */
export type ArrayOfTeacherGroup = (TeacherGroup | null)[];

/** tns:AttendanceRecord */
export interface AttendanceRecord {
  attendanceId: number;
  occurredOn: string;
  studentId: number;
  studentRecId: number;
  studentNameAr: string | null;
  studentNameEn: string | null;
  kind: string | null;
  absenceTypeId: number | null;
  absenceTypeNameAr: string | null;
  absenceTypeNameEn: string | null;
  minutesLate: number | null;
  note: string | null;
}

/** tns:ExamSlot */
export interface ExamSlot {
  heldOn: string;
  startsAt: string | null;
  endsAt: string | null;
  subjectId: number;
  subjectNameAr: string | null;
  subjectNameEn: string | null;
  classId: number;
  classNameAr: string | null;
  classNameEn: string | null;
  room: string | null;
}

/** tns:ExamTimetable */
export interface ExamTimetable {
  examId: number;
  nameAr: string | null;
  nameEn: string | null;
  termId: number;
  termNameAr: string | null;
  termNameEn: string | null;
  slots: ArrayOfExamSlot | null;
}

/** tns:GeneralNote */
export interface GeneralNote {
  noteId: number;
  postedOn: string;
  title: string | null;
  text: string | null;
  teacherId: number;
  teacherNameAr: string | null;
  teacherNameEn: string | null;
}

/** tns:Mark */
export interface Mark {
  assessmentId: number;
  assessmentNameAr: string | null;
  assessmentNameEn: string | null;
  termId: number;
  termNameAr: string | null;
  termNameEn: string | null;
  heldOn: string;
  score: number;
  maxScore: number;
}

/** tns:NoteType */
export interface NoteType {
  noteTypeId: number;
  nameAr: string | null;
  nameEn: string | null;
  isPositive: boolean;
}

/** tns:ReportDocument */
export interface ReportDocument {
  fileName: string | null;
  contentType: string | null;
  size: number;
  content: Uint8Array | null;
}

/** tns:StudentInfo */
export interface StudentInfo {
  studentRecId: number;
  studentId: number;
  nameAr: string | null;
  nameEn: string | null;
  gender: string | null;
  birthDate: string | null;
  phone: string | null;
  classId: number | null;
  classNameAr: string | null;
  classNameEn: string | null;
  gradeLevel: number | null;
  academicYear: string | null;
  enrolledOn: string;
  status: string | null;
}

/** tns:StudentNote */
export interface StudentNote {
  noteId: number;
  writtenOn: string;
  noteTypeId: number;
  noteTypeNameAr: string | null;
  noteTypeNameEn: string | null;
  isPositive: boolean;
  teacherId: number;
  authorNameAr: string | null;
  authorNameEn: string | null;
  text: string | null;
}

/** tns:SubjectInfo */
export interface SubjectInfo {
  subjectId: number;
  code: string | null;
  nameAr: string | null;
  nameEn: string | null;
  teacherId: number;
  teacherNameAr: string | null;
  teacherNameEn: string | null;
}

/** tns:TeacherGroup */
export interface TeacherGroup {
  classId: number;
  classNameAr: string | null;
  classNameEn: string | null;
  gradeLevel: number;
  subjectId: number;
  subjectNameAr: string | null;
  subjectNameEn: string | null;
  studentCount: number;
}

/** Every operation of the contract by name: its parameters as the bindings decode them, and its result. */
export interface OperationTypes {
  /** /AuthCodeSending.asmx */
  AuthCode: {
    parameters: { code: string | null; phone: string | null };
    result: string | undefined;
  };
  /** /BookPdf.asmx */
  GetBookPdfByTerm: {
    parameters: { termId: string | null; srid: string | null; classId: string | null };
    result: ReportDocument | undefined;
  };
  /** /GenerateStudentReport.asmx */
  GenerateReport: {
    parameters: { studentId: number; studentClass: string | null };
    result: ReportDocument | undefined;
  };
  /** /GetGeneralNoteByClasssID.asmx */
  GetStudentsGnote: {
    parameters: { ClassID: string | null };
    result: ArrayOfGeneralNote | undefined;
  };
  /** /GetNoteType.asmx */
  GetStudentsNoteType: {
    parameters: Record<string, never>;
    result: ArrayOfNoteType | undefined;
  };
  /** /GetStudentsAudit.asmx */
  GetAllAuditsByClassId: {
    parameters: { classId: string | null };
    result: ArrayOfAttendanceRecord | undefined;
  };
  /** /GetStudentsInformation.asmx */
  GetStudentInfoByRecId: {
    parameters: { StudentRecId: string | null };
    result: StudentInfo | undefined;
  };
  /** /GetStudentsInformation.asmx */
  GetStudentInfoById: {
    parameters: { StudentId: string | null };
    result: StudentInfo | undefined;
  };
  /** /GetStudentsNote.asmx */
  HelloWorld: {
    parameters: Record<string, never>;
    result: string | undefined;
  };
  /** /GetStudentsSubjects.asmx */
  GetStudentSubjectsByID: {
    parameters: { STDid: string | null };
    result: ArrayOfSubjectInfo | undefined;
  };
  /** /GetStudnetNote2.asmx */
  GetStudentNoteByID: {
    parameters: { STDid: string | null };
    result: ArrayOfStudentNote | undefined;
  };
  /** /GetStudnetsMarks2.asmx */
  GetStudentsMarks2: {
    parameters: { StudnetID: string | null; SubjectID: string | null };
    result: ArrayOfMark | undefined;
  };
  /** /GetTeacherGroups.asmx */
  GetTeacherGrpupsByID: {
    parameters: { Tid: string | null };
    result: ArrayOfTeacherGroup | undefined;
  };
  /** /GetTeacherSubjects.asmx */
  GetTeacherSubjectsByID: {
    parameters: { Tid: string | null; TClassid: string | null };
    result: ArrayOfSubjectInfo | undefined;
  };
  /** /NotificationNotes.asmx */
  SendMarkNotes: {
    parameters: { id: string | null; id_class: string | null; baseUrlSchool: string | null };
    result: number;
  };
  /** /NotificationNotes.asmx */
  GetNameAbsenceType: {
    parameters: { id: string | null; baseUrlSchool: string | null };
    result: string | undefined;
  };
  /** /PushNotificationMobile.asmx */
  PushNotificationToGateway: {
    parameters: {
      applicationID: string | null;
      senderId: string | null;
      deviceId: string | null;
      notes: string | null;
      notes_type: string | null;
    };
    result: string | undefined;
  };
  /** /Scheduals.asmx */
  GetExamTableByExamId: {
    parameters: { ExamId: string | null };
    result: ExamTimetable | undefined;
  };
}

export type OperationName = keyof OperationTypes;

/** Every operation's name, for the settings that name operations (the handlers hold the rest). */
export const OPERATION_NAMES: readonly OperationName[] = [
  'AuthCode',
  'GetBookPdfByTerm',
  'GenerateReport',
  'GetStudentsGnote',
  'GetStudentsNoteType',
  'GetAllAuditsByClassId',
  'GetStudentInfoByRecId',
  'GetStudentInfoById',
  'HelloWorld',
  'GetStudentSubjectsByID',
  'GetStudentNoteByID',
  'GetStudentsMarks2',
  'GetTeacherGrpupsByID',
  'GetTeacherSubjectsByID',
  'SendMarkNotes',
  'GetNameAbsenceType',
  'PushNotificationToGateway',
  'GetExamTableByExamId',
];
