import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/service-config';
import { configureLog, log } from '../../src/lib/log';
import { logRequest } from '../../src/telemetry/access-log';
import type { RequestRecord } from '../../src/telemetry/request-record';
import { capturedLog } from '../support/captured-log';
import { killed } from '../support/service-process';
import { NS, soap11 } from '../support/soap';

/**
 * LOG_FORMAT=text: one aligned line per event for a terminal (time, level, message, then
 * name=value), the access line included; JSON lines stay the default.
 */

const ROOT = resolve(__dirname, '..', '..');
/** Time, level padded to five, message padded to forty, then the fields. */
const TEXT_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}[A-Z][A-Z ]{4} {2}\S.{39}/;

describe('the log format', () => {
  afterEach(() => configureLog({ logLevel: 'silent', logFormat: 'json' }));

  test('is JSON unless LOG_FORMAT says text; another value is refused with the choices', () => {
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'Text' }).logFormat).toBe('text');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(
      new ConfigError('LOG_FORMAT must be one of json, text, got "xml"'),
    );
  });

  test('text: one aligned line per event, whatever its fields hold', async () => {
    configureLog({ logLevel: 'info', logFormat: 'text' });
    const lines = await capturedLog(() => {
      log.warn('no gateway configured', { channel: 'sms', setting: 'SMS_GATEWAY_URL' });
      log.error('operation failed', { operation: 'GetStudentInfoById', error: 'Error: boom\n    at handle (x.ts:1)' });
      log.debug('not at info');
    });
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(TEXT_LINE);
    expect(lines[0]).toMatch(/ {2}WARN {3}no gateway configured {19} {2}channel=sms {2}setting=SMS_GATEWAY_URL$/);
    expect(lines[1]).toMatch(
      / {2}ERROR {2}operation failed +operation=GetStudentInfoById {2}error="Error: boom\\n {4}at/,
    );
    // The fields start in the same column.
    expect(lines[0].indexOf('channel=')).toBe(lines[1].indexOf('operation='));
  });

  test('text: the access line names the status, the duration and what was called', async () => {
    configureLog({ logLevel: 'info', logFormat: 'text' });
    const record = {
      id: 'trace-1',
      address: '127.0.0.1',
      endpoint: '/GetStudentsNote.asmx',
      operation: 'HelloWorld',
      binding: 'soap11',
      caller: 'local',
    } as RequestRecord;
    const [line] = await capturedLog(() => logRequest(record, 200, 0.51234));
    expect(line).toMatch(TEXT_LINE);
    expect(line).toMatch(
      / {2}INFO {3}request +status=200 {2}durationMs=0\.512 {2}endpoint=\/GetStudentsNote\.asmx {2}/,
    );
    expect(line).toMatch(
      / {2}operation=HelloWorld {2}binding=soap11 {2}caller=local {2}address=127\.0\.0\.1 {2}requestId=trace-1$/,
    );
  });

  describe('a service started with LOG_FORMAT=text', () => {
    let folder: string;
    let child: ChildProcess;
    const lines: string[] = [];
    const waitFor = (pattern: RegExp) =>
      new Promise<string>((resolveLine, reject) => {
        const check = () => {
          const found = lines.find((line) => pattern.test(line));
          if (found) {
            child.stderr?.off('data', check);
            resolveLine(found);
          }
        };
        child.stderr?.on('data', check);
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${lines.join('\n')}`)));
        check();
      });

    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), 'school-log-format-'));
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: folder, DEMO_DATA: 'off', LOG_FORMAT: 'text' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let rest = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts);
      });
    });
    afterAll(async () => {
      await killed(child);
      rmSync(folder, { recursive: true, force: true });
    });

    test('writes text lines, not JSON, for its events and its calls', async () => {
      const listening = await waitFor(/ {2}INFO {3}listening /);
      const url = /url=(\S+)/.exec(listening)?.[1] as string;
      const answer = await soap11(`${url}/GetStudentsNote.asmx`, `<HelloWorld xmlns="${NS}" />`, `"${NS}HelloWorld"`);
      expect(answer.status).toBe(200);
      const request = await waitFor(/ {2}INFO {3}request +status=200 .*operation=HelloWorld/);
      expect(request).toMatch(TEXT_LINE);
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    });
  });
});
