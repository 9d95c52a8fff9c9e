import type { SoapVersion } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { callEveryOperation, callPort, nodeSoapClient } from './support/node-soap-client';
import { testWireActions } from './support/soap-actions';
import { SPEC_ENDPOINTS, SPEC_OPERATIONS } from './support/spec-operations';
import type { MarksSummary, StudentFields } from './support/typed-case';
import { type TypedClientCall, testTypedClientStack } from './support/typed-client-suite';

/**
 * node-soap's client in the typed profile: every operation over both versions, and the typed
 * results it decodes (a student, their marks) held to the values in the store, as the other stacks'
 * typed clients are. node-soap gives ints and doubles as numbers and dates as Date objects.
 */

function studentFields(result: Record<string, unknown> | null): StudentFields | null {
  const student = result?.GetStudentInfoByIdResult as Record<string, unknown> | null | undefined;
  if (!student) return null;
  const birthDate = student.BirthDate instanceof Date ? student.BirthDate.toISOString().slice(0, 10) : null;
  return {
    StudentId: student.StudentId as number,
    NameAr: student.NameAr as string,
    NameEn: student.NameEn as string,
    ClassNameAr: student.ClassNameAr as string,
    BirthDate: birthDate,
  };
}

function marksSummary(result: Record<string, unknown> | null): MarksSummary {
  const array = result?.GetStudentsMarks2Result as { Mark?: unknown } | null | undefined;
  // One Mark decodes as an object, several as an array, none (an empty ArrayOfMark) as null.
  const marks = (array?.Mark === undefined ? [] : [array.Mark].flat()) as Array<Record<string, unknown>>;
  const [first] = marks;
  return {
    count: marks.length,
    first: first
      ? {
          AssessmentNameAr: first.AssessmentNameAr as string,
          Score: first.Score as number,
          MaxScore: first.MaxScore as number,
        }
      : null,
  };
}

async function typedCalls(
  baseUrl: string,
  [studentId, subjectId, unknownId]: readonly string[],
): Promise<TypedClientCall[]> {
  const calls: TypedClientCall[] = [];
  const record = async (version: SoapVersion, operation: string, args: string[], read: () => Promise<unknown>) => {
    try {
      calls.push({
        version,
        operation,
        arguments: args,
        ok: true,
        result: (await read()) as TypedClientCall['result'],
      });
    } catch (error) {
      calls.push({ version, operation, arguments: args, ok: false, error: String(error) });
    }
  };
  for (const version of ['1.1', '1.2'] as const) {
    const students = await nodeSoapClient(`${baseUrl}/GetStudentsInformation.asmx?WSDL`, version);
    const marks = await nodeSoapClient(`${baseUrl}/GetStudnetsMarks2.asmx?WSDL`, version);
    for (const student of [studentId, unknownId]) {
      await record(version, 'GetStudentInfoById', [student], async () =>
        studentFields(
          await callPort(students.client, students.service, students.port, 'GetStudentInfoById', {
            StudentId: student,
          }),
        ),
      );
    }
    for (const subject of [subjectId, unknownId]) {
      await record(version, 'GetStudentsMarks2', [studentId, subject], async () =>
        marksSummary(
          await callPort(marks.client, marks.service, marks.port, 'GetStudentsMarks2', {
            StudnetID: studentId,
            SubjectID: subject,
          }),
        ),
      );
    }
  }
  return calls;
}

describe("node-soap's client reading typed results from the live typed WSDL", () => {
  testTypedClientStack(({ baseUrl, callArguments }) => typedCalls(baseUrl, callArguments));
});

describe("node-soap's client calling every operation in the typed profile", () => {
  const running = testClientStack((baseUrl) => callEveryOperation(baseUrl, SPEC_ENDPOINTS), { CONTRACT: 'typed' });
  testWireActions(() => running.proxy.requests, SPEC_OPERATIONS);
});
