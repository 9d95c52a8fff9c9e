import { configureLog } from '../../src/lib/log';
import type { RunningService } from '../../src/service';
import type { AuditEntry } from '../../src/store/queries/audit-trail';
import { REMOTE_TEST_SETTINGS, remoteCall } from '../support/callers';
import { capturedLog } from '../support/captured-log';
import { districtCli, makeTestDistrict, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { basic, REMOTE_ADDRESS } from '../support/remote-client';
import { startTestService } from '../support/service';
import { TEST_TODAY } from '../support/stores';

/**
 * The audit trail names the school, on each engine: a district caller's calls at two schools and at
 * the bare paths are each kept in the trail of the school that answered them, every entry naming
 * its school (none at the deployment's own); `audit --school` shows it, `audit --all-schools` lists
 * every trail in one listing, newest first and bounded by --limit, each entry naming its school;
 * and the warning of a call refused at a school names the school in the log.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
const CALLER = 'district-reader';

/** The secret a `callers add --secret` run printed, on the line after "Secret of NAME". */
function printedSecret(stdout: string): string {
  const match = /Secret of [^\n]*\n\s+(\S+)/.exec(stdout);
  if (!match) throw new Error(`no secret printed in: ${stdout}`);
  return match[1];
}

describeEachEngine('audit entries name their school', (engine) => {
  let district: TestDistrict;
  let service: RunningService;
  let secret: string;

  const studentCall = (prefix: string, authorization: string) =>
    remoteCall(service.url, `${prefix}${STUDENTS}`, 'GetStudentInfoById', { StudentId: '5' }, 'soap11', {
      from: REMOTE_ADDRESS,
      headers: { Authorization: authorization },
    });
  const audit = (...args: string[]) => districtCli(district, ['audit', ...args]);
  const listed = (...args: string[]): AuditEntry[] => {
    const run = audit(...args, '--json');
    expect([run.status, run.stderr]).toEqual([0, expect.not.stringContaining('rror')]);
    return JSON.parse(run.stdout) as AuditEntry[];
  };
  /** The school each entry of the caller names, as the school's own store holds them. */
  const schoolsIn = (store: Parameters<typeof withStoreAt>[0]) =>
    withStoreAt(store, async (opened) =>
      (await opened.db.selectFrom('audit_events').select('school').where('caller', '=', CALLER).execute()).map(
        (row) => row.school,
      ),
    );

  beforeAll(async () => {
    district = await makeTestDistrict(
      engine.freshStoreSettings(),
      [
        { entry: { sourcedId: 'org-a', path: '/alpha' }, students: 20, seed: 7 },
        { entry: { sourcedId: 'org-b', path: '/beta' }, students: 20, seed: 11 },
      ],
      { students: 20, seed: 3 },
    );
    const added = districtCli(district, ['callers', 'add', CALLER, '--all-schools', '--secret', '--operations', 'all']);
    expect(added.status).toBe(0);
    secret = printedSecret(added.stdout);
    service = await startTestService(
      { ...REMOTE_TEST_SETTINGS, CONTRACT: 'typed', DEMO_DATA: 'off', ...district.settings },
      // The test's day, running on: entries are ordered by their time, which the clock gives.
      { now: () => new Date(TEST_TODAY.getTime() + performance.now()) },
    );
    // One call a school, in this order, so that the listing's newest entry is the bare paths'.
    for (const prefix of ['/alpha', '/beta', '']) {
      expect((await studentCall(prefix, basic(CALLER, secret))).status).toBe(200);
      // Entries are ordered by their time: each call in a millisecond of its own.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await service.writeAudit();
  });

  afterAll(async () => {
    configureLog({ logLevel: 'silent', logFormat: 'json' });
    await service?.close();
    district?.remove();
  });

  it('keeps each call in the trail of the school that answered it, naming that school', async () => {
    expect(await schoolsIn(district.storeOf('org-a'))).toEqual(['org-a']);
    expect(await schoolsIn(district.storeOf('org-b'))).toEqual(['org-b']);
    // The deployment's own school, as a deployment of one school: no school.
    expect(await schoolsIn(district.deployment)).toEqual([null]);
  });

  it('shows the school in `audit --school`, in its lines and its JSON', () => {
    const text = audit('--caller', CALLER, '--school', 'org-b');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^\\S+  org-b  ${CALLER}  ${REMOTE_ADDRESS}  GetStudentInfoById  `, 'm'));
    expect(listed('--caller', CALLER, '--school', 'org-b').map((entry) => entry.school)).toEqual(['org-b']);
    // The deployment's own trail, read as a single school's: its entries name none, and its lines show no column.
    expect(listed('--caller', CALLER).map((entry) => entry.school)).toEqual([null]);
    expect(audit('--caller', CALLER).stdout).toMatch(new RegExp(`^\\S+  ${CALLER}  ${REMOTE_ADDRESS}  `, 'm'));
  });

  it('lists every trail in one listing with --all-schools, newest first, each entry naming its school', () => {
    const all = listed('--all-schools', '--caller', CALLER);
    expect(all.map((entry) => entry.school)).toEqual([null, 'org-b', 'org-a']);
    expect(all.map((entry) => entry.operation)).toEqual(Array(3).fill('GetStudentInfoById'));
    const text = audit('--all-schools');
    expect(text.status).toBe(0);
    expect(text.stderr).toContain('audit trails read: 3');
    for (const school of ['-', 'org-a', 'org-b']) {
      expect(text.stdout).toMatch(new RegExp(`^\\S+  ${school}  ${CALLER}  `, 'm'));
    }
    // Bounded as the listing of one trail: the newest --limit entries of all the schools.
    const two = listed('--all-schools', '--caller', CALLER, '--limit', '2');
    expect(two.map((entry) => entry.id)).toEqual(all.slice(0, 2).map((entry) => entry.id));
    expect(listed('--all-schools', '--caller', 'nobody')).toEqual([]);
  });

  it('refuses --all-schools with a student id or with --school, with exit code 2', () => {
    const student = audit('--all-schools', '--student', '5');
    expect(student.status).toBe(2);
    expect(student.stderr).toContain('--student names a child of one school');
    const school = audit('--all-schools', '--school', 'org-a');
    expect(school.status).toBe(2);
    expect(school.stderr).toContain('leave out --school');
  });

  it('names the school in the warning of a call refused there, and none at the bare paths', async () => {
    configureLog({ logLevel: 'warn', logFormat: 'json' });
    const lines = await capturedLog(async () => {
      for (const prefix of ['/alpha', '']) {
        expect((await studentCall(prefix, basic(CALLER, 'not-the-secret'))).status).toBe(401);
      }
    });
    const refused = lines
      .filter((line) => line.includes('"message":"call refused"'))
      .map((line) => JSON.parse(line) as { school?: string });
    expect(refused.map((line) => line.school)).toEqual(['org-a', undefined]);
  });
});
