import type { OperationName } from '../contract/operation-types';
import type { ParametersOf } from './operation';

/**
 * The longest text, in characters, each string parameter of each operation may carry; a longer
 * one is refused before the operation runs, so that nothing oversized is stored or forwarded.
 * The type asks for a bound for every string parameter of every operation (ints bound
 * themselves), so a parameter added to the WSDL without one does not compile.
 */
type StringParameters<Name extends OperationName> = {
  [Parameter in keyof ParametersOf<Name> as ParametersOf<Name>[Parameter] extends number ? never : Parameter]: number;
};

export type ParameterLimits = { readonly [Name in OperationName]: StringParameters<Name> };

/** An identifier sent as text: ten digits, with room for spaces and a sign. */
const IDENTIFIER = 32;
/** A school's base URL. */
const URL = 2_048;
/** Text a person writes in a notification; PUSH_NOTES_MAX_LENGTH bounds it further. */
const NOTES = 100_000;

export const PARAMETER_LIMITS: ParameterLimits = {
  AuthCode: { code: 16, phone: 32 },
  HelloWorld: {},
  GenerateReport: { studentClass: IDENTIFIER },
  GetBookPdfByTerm: { termId: IDENTIFIER, srid: IDENTIFIER, classId: IDENTIFIER },
  GetStudentInfoByRecId: { StudentRecId: IDENTIFIER },
  GetStudentInfoById: { StudentId: IDENTIFIER },
  GetStudentSubjectsByID: { STDid: IDENTIFIER },
  GetTeacherSubjectsByID: { Tid: IDENTIFIER, TClassid: IDENTIFIER },
  GetStudentsMarks2: { StudnetID: IDENTIFIER, SubjectID: IDENTIFIER },
  GetAllAuditsByClassId: { classId: IDENTIFIER },
  GetStudentsGnote: { ClassID: IDENTIFIER },
  GetTeacherGrpupsByID: { Tid: IDENTIFIER },
  GetStudentNoteByID: { STDid: IDENTIFIER },
  GetExamTableByExamId: { ExamId: IDENTIFIER },
  GetStudentsNoteType: {},
  PushNotificationToGateway: { applicationID: 256, senderId: 256, deviceId: 512, notes: NOTES, notes_type: 256 },
  SendMarkNotes: { id: IDENTIFIER, id_class: IDENTIFIER, baseUrlSchool: URL },
  GetNameAbsenceType: { id: IDENTIFIER, baseUrlSchool: URL },
};

/** The first parameter longer than its bound, with the bound; undefined when every one fits. */
export function parameterTooLong(
  operation: OperationName,
  parameters: Readonly<Record<string, string | number | null>>,
): { name: string; limit: number } | undefined {
  const limits = PARAMETER_LIMITS[operation] as Readonly<Record<string, number>>;
  for (const name in limits) {
    const value = parameters[name];
    if (typeof value !== 'string' || value.length <= limits[name]) continue;
    // Length in characters: a UTF-16 string holds at most twice as many units as characters.
    if (value.length > 2 * limits[name] || [...value].length > limits[name]) return { name, limit: limits[name] };
  }
  return undefined;
}
