import { RequestFigures } from '../../src/telemetry/request-figures';
import type { RequestRecord } from '../../src/telemetry/request-record';

/** A process's requests by minute over the last hour: what the status page charts. */
describe('the last hour of requests', () => {
  const record = (operation: string | undefined, outcome: string | undefined): RequestRecord => ({
    id: 'id',
    startedAt: 0,
    address: '127.0.0.1',
    endpoint: operation ? '/GetStudentsNote.asmx' : '/status',
    operation,
    binding: operation ? 'soap11' : undefined,
    caller: 'local',
    outcome,
  });

  test('calls count in the minute they end in; pages are not calls; a minute an hour old is gone', () => {
    let now = Date.UTC(2026, 10, 25, 10, 0, 30);
    const figures = new RequestFigures(() => now);
    figures.add(record('HelloWorld', 'ok'), 200, 1);
    figures.add(record(undefined, undefined), 200, 1);
    now += 60_000;
    figures.add(record('HelloWorld', 'ok'), 200, 1);
    figures.add(record('GetStudentInfoById', 'forbidden'), 403, 2);
    expect(figures.lastHour().map((minute) => [minute.minute % 60, minute.operations.HelloWorld?.count])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(figures.lastHour()[1].refusals).toEqual({ forbidden: 1 });

    // An hour after the first minute, its slot is used again: its old count is gone, the second minute's is not.
    now += 59 * 60_000;
    figures.add(record('HelloWorld', 'ok'), 200, 1);
    expect(figures.lastHour().map((minute) => [minute.minute % 60, minute.operations.HelloWorld?.count])).toEqual([
      [1, 1],
      [0, 1],
    ]);
    expect(figures.lastHour()[1].minute - figures.lastHour()[0].minute).toBe(59);
  });

  test('since the start, by endpoint, operation, binding and outcome, with refusals by reason', () => {
    const figures = new RequestFigures();
    figures.add(record('AuthCode', 'rate-limited'), 500, 3);
    figures.add(record(undefined, undefined), 404, 1);
    const [requests, , refusals] = figures.metrics();
    expect(requests.values).toEqual([
      {
        labels: {
          endpoint: '/GetStudentsNote.asmx',
          operation: 'AuthCode',
          binding: 'soap11',
          outcome: 'rate-limited',
        },
        value: 1,
      },
      { labels: { endpoint: '/status', operation: '', binding: '', outcome: 'client' }, value: 1 },
    ]);
    expect(refusals.values).toEqual([
      { labels: { reason: 'unauthenticated' }, value: 0 },
      { labels: { reason: 'forbidden' }, value: 0 },
      { labels: { reason: 'rate-limited' }, value: 1 },
    ]);
  });
});
