import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningService } from '../../src/service';
import { cliArguments, ROOT } from '../support/cli';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { call } from '../support/legacy-calls';
import { startTestService } from '../support/service';
import { killed, startServiceProcess } from '../support/service-process';

const run = promisify(execFile);

/**
 * Recording the calls a service is sent (RECORD_FILE, as `serve --record FILE` sets it), and
 * replaying them against this service and another with `school-service replay`.
 */
describe('Record and replay', () => {
  let folder: string;
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;
  const recording = () => join(folder, 'calls.jsonl');

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-replay-'));
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test("loopback callers' calls are not recorded unless asked", async () => {
    service = await startTestService({ DEMO_DATA: 'off', RECORD_FILE: recording() });
    expect((await call(service.url, 'soap11')).status).toBe(200);
    // Closing ends the recording: what was to be written is written by then.
    await service.close();
    service = undefined;
    expect(readFileSync(recording(), 'utf8')).toBe('');
  });

  test('records the calls let in, one JSON line each, without credentials, readable by its owner only', async () => {
    service = await startTestService({ DEMO_DATA: 'off', RECORD_FILE: recording(), RECORD_LOOPBACK: 'on' });
    await call(service.url, 'soap11');
    await call(service.url, 'json');
    const refused = await fetch(`${service.url}/GetNoteType.asmx/GetStudentsNoteType`, {
      headers: { Authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' },
    });
    expect(refused.status).toBe(401);
    await service.close();
    service = undefined;
    const lines = readFileSync(recording(), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        operation: 'HelloWorld',
        binding: 'soap11',
        method: 'POST',
        path: '/GetStudentsNote.asmx',
      }),
      expect.objectContaining({ operation: 'HelloWorld', binding: 'json', body: '{}' }),
    ]);
    expect(lines[0].headers).toEqual({
      'content-type': 'text/xml; charset=utf-8',
      soapaction: '"http://tempuri.org/HelloWorld"',
      accept: '*/*',
      'accept-language': '*',
      'user-agent': 'node',
    });
    expect(lines[0].body).toContain('<HelloWorld xmlns="http://tempuri.org/" />');
    expect(statSync(recording()).mode & 0o777).toBe(0o600);
  });

  test('school-service serve --record FILE --record-loopback, with two workers: each call one whole line', async () => {
    const serving = await startServiceProcess(
      { DEMO_DATA: 'off', DATA_DIR: folder, WORKERS: '2' },
      'workers listening',
      ['src/cli.ts', 'serve', '--record', recording(), '--record-loopback'],
    );
    try {
      const url = String(serving.lines.find((line) => line.message === 'listening')?.url);
      // Fresh connections, so that the balancing among the workers has the chance to use both.
      const calls = Array.from({ length: 20 }, () =>
        fetch(`${url}/GetStudentsNote.asmx/HelloWorld`, { headers: { Connection: 'close' } }).then((r) => r.text()),
      );
      await Promise.all(calls);
      serving.child.kill('SIGTERM');
      expect(await serving.exited).toBe(0);
    } finally {
      await killed(serving.child);
    }
    const lines = readFileSync(recording(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ operation: 'HelloWorld', binding: 'http-get' });
  });

  test('replay sends each call to both services and prints the report', async () => {
    service = await startTestService({ DEMO_DATA: 'off', RECORD_FILE: recording(), RECORD_LOOPBACK: 'on' });
    for (const binding of ['soap11', 'soap12', 'http-get', 'json'] as const) await call(service.url, binding);
    await service.close();
    // A hand-written line, without operation and binding: the binding is told from the request.
    const handWritten = { method: 'POST', path: '/GetStudentsNote.asmx/HelloWorld', headers: {}, body: '' };
    writeFileSync(recording(), `${readFileSync(recording(), 'utf8')}${JSON.stringify(handWritten)}\n`);
    service = await startTestService({ DEMO_DATA: 'off' });
    legacy.behaviour.differ = { from: 'Hello World', to: 'Hello Legacy' };
    const replay = (...extra: string[]) =>
      run(
        process.execPath,
        cliArguments(
          'replay',
          recording(),
          '--against',
          legacy.url,
          '--service',
          (service as RunningService).url,
          ...extra,
        ),
        { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } },
      );
    const report = JSON.parse((await replay('--json')).stdout) as {
      operations: Array<{ operation: string; binding: string; different: number }>;
      differences: Array<{ path: string }>;
    };
    expect(report.operations.map((row) => `${row.operation} ${row.binding} ${row.different}`).sort()).toEqual([
      '/GetStudentsNote.asmx/HelloWorld http-post 1',
      'HelloWorld http-get 1',
      'HelloWorld json 1',
      'HelloWorld soap11 1',
      'HelloWorld soap12 1',
    ]);
    expect(report.differences.map((difference) => difference.path)).toContain(
      '/Envelope/Body/HelloWorldResponse/HelloWorldResult',
    );
    expect(legacy.requests).toHaveLength(5);
    writeFileSync(recording(), '{"method":"DELETE","path":"/x"}\n');
    await expect(replay()).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(':1: method must be GET or POST'),
    });
  });
});
