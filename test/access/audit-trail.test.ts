import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { RunningService } from '../../src/service';
import { basic, REMOTE_TEST_SETTINGS, remoteCall, startSchoolWithCallers } from '../support/callers';
import { cliArguments, ROOT } from '../support/cli';
import { eventually } from '../support/eventually';
import { startTestService } from '../support/service';
import { openTestStore } from '../support/stores';

/**
 * The audit trail: each call that returns personal data is recorded with its caller, address,
 * operation, binding, outcome and the records it touched, written in batches rather than per
 * call, and `school-service audit` answers who saw a child's record.
 */
const INFO = '/GetStudentsInformation.asmx';

describe('the audit trail', () => {
  let folder: string;
  let service: RunningService;
  let secret: string;
  const auditRows = async () => (await service.store.db.selectFrom('audit_events').selectAll().execute()).length;
  const audit = (...args: string[]) =>
    spawnSync(process.execPath, cliArguments('audit', ...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  beforeAll(async () => {
    // The folder outlives the first service: a test restarts the service on it.
    const school = await startSchoolWithCallers([{ name: 'portal', secret: true }], { AUDIT_FLUSH_MS: '1000' });
    ({ service, folder } = school);
    secret = school.secrets.portal;
  });
  afterAll(async () => {
    await service.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('records who saw a student, through what, with the records touched, in batches', async () => {
    // Start just after a batch is written, so that the next is a whole AUDIT_FLUSH_MS away even on a busy machine.
    const unsynced = await auditRows();
    await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, 'get', { from: '127.0.0.1' });
    const before = await eventually(auditRows, (rows) => rows !== unsynced, { intervalMs: 10 });
    const answer = await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '7' }, 'soap12', {
      headers: { Authorization: basic('portal', secret) },
    });
    expect(answer.status).toBe(200);
    await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '7' }, 'get', { from: '127.0.0.1' });
    // Not a store write per call: the entries wait for the next batch, which the service writes on its own.
    expect(await auditRows()).toBe(before);
    expect(await eventually(auditRows, (rows) => rows >= before + 2)).toBe(before + 2);

    const run = audit('--student', '7');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.includes('  portal  '))).toMatch(
      /^\S+Z {2}portal {2}127\.0\.0\.2 {2}GetStudentInfoById {2}soap12 {2}ok {2}student 7; class \d+$/,
    );
    expect(lines.find((line) => line.includes('  local  '))).toContain('127.0.0.1  GetStudentInfoById  http-get  ok');
    expect(audit('--caller', 'portal').stdout.trim().split('\n')).toHaveLength(1);
    expect(audit('--student', '7', '--since', '2999-01-01').stdout).toBe('No audited calls match.\n');
    expect(audit('--student', '8').stdout).toBe('No audited calls match.\n');
  });

  test("does not record calls that return nobody's data", async () => {
    await service.writeAudit();
    const before = await auditRows();
    await remoteCall(service.url, '/GetNoteType.asmx', 'GetStudentsNoteType', {}, 'json', {
      headers: { Authorization: basic('portal', secret) },
    });
    await remoteCall(service.url, '/GetStudentsNote.asmx', 'HelloWorld', {}, 'json');
    // An unknown (or out-of-scope) student: an empty answer showed no one's record.
    await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '999999' }, 'json', {
      headers: { Authorization: basic('portal', secret) },
    });
    // Whatever the calls left to write is written now.
    await service.writeAudit();
    expect(await auditRows()).toBe(before);
  });

  test('writes what is buffered when the service stops', async () => {
    const before = await auditRows();
    await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '9' }, 'json', {
      headers: { Authorization: basic('portal', secret) },
    });
    await service.close();
    const again = await openTestStore({ DATA_DIR: folder });
    const rows = await again.db.selectFrom('audit_events').selectAll().execute();
    await again.close();
    expect(rows.length).toBe(before + 1);
    service = await startTestService({ ...REMOTE_TEST_SETTINGS, DATA_DIR: folder, DEMO_DATA: 'off' });
  });

  test("records a class's attendance by its class, and finds it for each student enrolled there", async () => {
    const enrolment = await service.store.db
      .selectFrom('student_records')
      .select('class_id')
      .where('student_id', '=', 7)
      .executeTakeFirstOrThrow();
    const answer = await remoteCall(
      service.url,
      '/GetStudentsAudit.asmx',
      'GetAllAuditsByClassId',
      { classId: String(enrolment.class_id) },
      'json',
      { headers: { Authorization: basic('portal', secret) } },
    );
    expect(JSON.parse(answer.text).d.length).toBeGreaterThan(0);
    await service.writeAudit();
    const subjects = await service.store.db
      .selectFrom('audit_subjects as subject')
      .innerJoin('audit_events as event', 'event.id', 'subject.event_id')
      .select(['subject.kind', 'subject.subject_id'])
      .where('event.operation', '=', 'GetAllAuditsByClassId')
      .execute();
    expect(subjects).toEqual([{ kind: 'class', subject_id: enrolment.class_id }]);
    const lines = audit('--student', '7').stdout.trim().split('\n');
    expect(lines.filter((line) => line.includes('GetAllAuditsByClassId'))).toEqual([
      expect.stringMatching(new RegExp(`GetAllAuditsByClassId {2}json {2}ok {2}class ${enrolment.class_id}$`)),
    ]);
  });

  test('refuses an audit without a student or a caller (exit code 2)', () => {
    const run = audit();
    expect([run.status, run.stderr]).toEqual([2, 'school-service: name a --student or a --caller (or both)\n']);
  });
});
