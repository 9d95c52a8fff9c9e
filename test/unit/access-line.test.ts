import { configureLog, flushLog, setLogLevel } from '../../src/lib/log';
import { logRequest } from '../../src/telemetry/access-log';
import type { RequestRecord } from '../../src/telemetry/request-record';

function record(caller: string, operation: string): RequestRecord {
  return {
    id: '3f1c2b9e-0000-4000-8000-000000000001',
    startedAt: 0,
    address: '10.0.0.1, "x"',
    endpoint: '/GetStudentsInformation.asmx',
    operation,
    binding: 'soap11',
    caller,
    outcome: 'ok',
  };
}

/** The access lines written while `write` runs, parsed. */
function linesOf(write: () => void): Record<string, unknown>[] {
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    write();
    flushLog();
  } finally {
    spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the access line', () => {
  beforeAll(() => configureLog({ logLevel: 'info', logFormat: 'json' }));
  afterAll(() => setLogLevel('silent'));

  test('names each call by its own labels, escaped as JSON, the first time and again', () => {
    const odd = 'a "quoted"\\ caller\n\u0001';
    const lines = linesOf(() => {
      logRequest(record(odd, 'GetStudentInfoById'), 200, 1.23456);
      logRequest(record(odd, 'GetStudentInfoById'), 200, 2);
      logRequest(record('portal', 'HelloWorld'), 500, 3);
    });
    expect(lines.map((line) => [line.caller, line.operation, line.status, line.durationMs])).toEqual([
      [odd, 'GetStudentInfoById', 200, 1.235],
      [odd, 'GetStudentInfoById', 200, 2],
      ['portal', 'HelloWorld', 500, 3],
    ]);
    expect(lines[0]).toMatchObject({
      level: 'info',
      message: 'request',
      requestId: '3f1c2b9e-0000-4000-8000-000000000001',
      address: '10.0.0.1, "x"',
      endpoint: '/GetStudentsInformation.asmx',
      binding: 'soap11',
    });
  });

  test('leaves out the labels a request that was no call has not got', () => {
    const [line] = linesOf(() =>
      logRequest({ ...record('anonymous', 'x'), operation: undefined, binding: undefined }, 404, 0.5),
    );
    expect(Object.keys(line)).toEqual([
      'time',
      'level',
      'message',
      'requestId',
      'caller',
      'address',
      'endpoint',
      'status',
      'durationMs',
    ]);
  });
});
