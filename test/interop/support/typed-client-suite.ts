import type { SoapVersion } from './client-process';
import { useServiceBehindProxy } from './service-behind-proxy';
import { testWireVersions, VERSIONS } from './soap-versions';
import { operationKeys } from './spec-operations';
import { typedCaseFromStore, type MarksSummary, type StudentFields, type TypedCase } from './typed-case';

/** The calls a typed client makes per SOAP version, as the recording proxy sees them. */
const WIRE_CALLS = [
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoById' },
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoById' },
  { endpoint: '/GetStudnetsMarks2.asmx', operation: 'GetStudentsMarks2' },
  { endpoint: '/GetStudnetsMarks2.asmx', operation: 'GetStudentsMarks2' },
];

/** The endpoints whose typed WSDL the clients are generated from. */
export const TYPED_ENDPOINTS: readonly string[] = [...new Set(WIRE_CALLS.map(({ endpoint }) => endpoint))];

/** One line a typed client program prints per call: what it sent, and what it decoded. */
export interface TypedClientCall {
  version: SoapVersion;
  operation: string;
  arguments: string[];
  ok: boolean;
  result?: StudentFields | MarksSummary | null;
  error?: string;
}

/** What a stack's typed client program is run with. */
export interface TypedClientRun {
  /** Where the client reads the typed WSDLs of TYPED_ENDPOINTS and sends its calls. */
  baseUrl: string;
  /** The program's arguments: STUDENT_ID SUBJECT_ID UNKNOWN_ID. */
  callArguments: readonly string[];
  /** A C locale, so that the client's UTF-8 output has to come from the program, not from the locale. */
  environment: NodeJS.ProcessEnv;
}

const EMPTY_MARKS: MarksSummary = { count: 0, first: null };

/**
 * The typed-profile tests every client stack must pass, registered in the caller's describe. The
 * stack's client program takes STUDENT_ID SUBJECT_ID UNKNOWN_ID and, over SOAP 1.1 and over SOAP
 * 1.2, calls GetStudentInfoById(STUDENT_ID), GetStudentInfoById(UNKNOWN_ID),
 * GetStudentsMarks2(STUDENT_ID, SUBJECT_ID) and GetStudentsMarks2(STUDENT_ID, UNKNOWN_ID), printing
 * one JSON line in UTF-8 per call:
 *   {"version":"1.1","operation":"GetStudentInfoById","arguments":["3"],"ok":true,
 *    "result":{"StudentId":3,"NameAr":"…","NameEn":"…","ClassNameAr":"…","BirthDate":"2020-01-25"}}
 *   {"version":"1.1","operation":"GetStudentsMarks2","arguments":["3","1"],"ok":true,
 *    "result":{"count":9,"first":{"AssessmentNameAr":"…","Score":9.5,"MaxScore":10}}}
 * An empty result reads "result":null for a student and {"count":0,"first":null} for marks; a
 * failed call "ok":false and "error". The expected values come from the store the service reads.
 */
export function testTypedClientStack(runClientStack: (run: TypedClientRun) => Promise<TypedClientCall[]>): void {
  const running = useServiceBehindProxy({ CONTRACT: 'typed' });
  let expected: TypedCase;
  let calls: TypedClientCall[] = [];

  beforeAll(async () => {
    const { store, clock } = running.service;
    expected = await typedCaseFromStore(store, clock().toISOString().slice(0, 10));
    const callArguments = [expected.studentId, expected.subjectId, expected.unknownId];
    calls = await runClientStack({
      baseUrl: running.proxy.url,
      callArguments,
      environment: { ...process.env, LC_ALL: 'C' },
    });
  });

  /** Compares the whole line, so that a failed call shows its error and a missing one shows as undefined. */
  function expectCall(
    version: SoapVersion,
    operation: string,
    callArguments: string[],
    result: TypedClientCall['result'],
  ): void {
    const line = calls.find(
      (call) =>
        call.version === version &&
        call.operation === operation &&
        JSON.stringify(call.arguments) === JSON.stringify(callArguments),
    );
    expect(line).toEqual({ version, operation, arguments: callArguments, ok: true, result });
  }

  test.each(VERSIONS)('decodes the student, Arabic names exactly as stored, over SOAP %s', (version) => {
    expectCall(version, 'GetStudentInfoById', [expected.studentId], expected.student);
  });

  test.each(VERSIONS)(
    "decodes the student's marks in a subject: count, first assessment's Arabic name, score and maximum, over SOAP %s",
    (version) => {
      expectCall(version, 'GetStudentsMarks2', [expected.studentId, expected.subjectId], expected.marks);
    },
  );

  test.each(VERSIONS)(
    'decodes empty results without error: no student for an unknown id, no marks for an unknown subject, over SOAP %s',
    (version) => {
      expectCall(version, 'GetStudentInfoById', [expected.unknownId], null);
      expectCall(version, 'GetStudentsMarks2', [expected.studentId, expected.unknownId], EMPTY_MARKS);
    },
  );

  testWireVersions(() => running.proxy.requests, operationKeys(WIRE_CALLS));
}
