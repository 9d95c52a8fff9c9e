import type { RunningService } from '../../src/service';
import { addTestCaller, REMOTE_TEST_SETTINGS, remoteCall, usernameTokenHeader } from '../support/callers';
import { districtCli, makeTestDistrict, type TestDistrict } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { basic, REMOTE_ADDRESS } from '../support/remote-client';
import { startTestService } from '../support/service';
import { TEST_TODAY } from '../support/stores';

/**
 * District callers, on each engine: a caller added with `callers add --all-schools` is kept in the
 * deployment's store and let in at every school's paths (and the bare paths), within its
 * operations; a school's own caller stays at its school; revoking the district caller refuses it
 * everywhere. The deployment and each school keep their own key (no OUTBOX_KEY), so that a district
 * caller's WS-Security digest secret, sealed under the deployment's key, is opened with that key
 * at every school.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
const IN_ALL = '5';
/** Each store keeps a key of its own in its folder. */
const OWN_KEYS = { OUTBOX_KEY: '' };

/** The secret a `callers add --secret` run printed, on the line after "Secret of NAME". */
function printedSecret(stdout: string): string {
  const match = /Secret of [^\n]*\n\s+(\S+)/.exec(stdout);
  if (!match) throw new Error(`no secret printed in: ${stdout}`);
  return match[1];
}

describeEachEngine('district callers', (engine) => {
  let district: TestDistrict;
  let service: RunningService;
  let secretOfAlpha: string;
  let districtSecret: string;

  const studentCall = (path: string, headers: Record<string, string>, soapHeader?: string) =>
    remoteCall(service.url, path, 'GetStudentInfoById', { StudentId: IN_ALL }, 'soap11', {
      from: REMOTE_ADDRESS,
      headers,
      soapHeader,
    });

  beforeAll(async () => {
    district = await makeTestDistrict(
      engine.freshStoreSettings(),
      [
        {
          entry: { sourcedId: 'org-a', path: '/alpha' },
          students: 20,
          seed: 7,
          prepare: async (store) => {
            secretOfAlpha = (await addTestCaller(store, { name: 'alpha-app', secret: true })) as string;
          },
        },
        { entry: { sourcedId: 'org-b', path: '/beta' }, students: 20, seed: 11 },
      ],
      { students: 20, seed: 3 },
    );
    const added = districtCli(
      district,
      [
        'callers',
        'add',
        'district-app',
        '--all-schools',
        '--secret',
        '--ws-digest',
        '--operations',
        'GetStudentInfoById',
      ],
      OWN_KEYS,
    );
    expect([added.status, added.stderr]).toEqual([0, expect.not.stringContaining('error')]);
    expect(added.stdout).toContain('at every school of the deployment');
    districtSecret = printedSecret(added.stdout);
    service = await startTestService(
      { ...REMOTE_TEST_SETTINGS, ...OWN_KEYS, CONTRACT: 'typed', DEMO_DATA: 'off', ...district.settings },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    district?.remove();
  });

  it('refuses a district caller with a scope narrower than a school, and with --school', () => {
    const scoped = districtCli(
      district,
      ['callers', 'add', 'one-teacher', '--all-schools', '--secret', '--scope', 'teacher:1'],
      OWN_KEYS,
    );
    expect(scoped.status).toBe(2);
    expect(scoped.stderr).toContain('--scope school');
    const ofSchool = districtCli(
      district,
      ['callers', 'add', 'x-app', '--all-schools', '--secret', '--school', 'org-a'],
      OWN_KEYS,
    );
    expect(ofSchool.status).toBe(2);
    expect(ofSchool.stderr).toContain('leave out --school');
    const listed = districtCli(district, ['callers', 'list', '--json'], OWN_KEYS);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ name: 'district-app', allSchools: true })]);
  });

  it('lets a district caller in at every school and at the bare paths, within its operations', async () => {
    const auth = { Authorization: basic('district-app', districtSecret) };
    for (const path of [`/alpha${STUDENTS}`, `/beta${STUDENTS}`, STUDENTS]) {
      const answer = await studentCall(path, auth);
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.text).toContain(`<StudentId>${IN_ALL}</StudentId>`);
    }
    // An operation it was not given is refused at every school as at the bare paths.
    for (const prefix of ['/alpha', '/beta', '']) {
      const other = await remoteCall(
        service.url,
        `${prefix}${STUDENTS}`,
        'GetStudentInfoByRecId',
        { StudentRecId: '1' },
        'get',
        {
          from: REMOTE_ADDRESS,
          headers: auth,
        },
      );
      expect([prefix, other.status]).toEqual([prefix, 403]);
    }
  });

  it('checks a district caller’s digest with the deployment’s key, and spends its nonce at every school', async () => {
    const token = usernameTokenHeader('district-app', districtSecret, { digest: true, created: TEST_TODAY });
    const atBeta = await studentCall(`/beta${STUDENTS}`, {}, token);
    expect(atBeta.status).toBe(200);
    expect(atBeta.text).toContain(`<StudentId>${IN_ALL}</StudentId>`);
    // The same token again, at another school: a replay.
    expect((await studentCall(`/alpha${STUDENTS}`, {}, token)).status).toBe(401);
    const fresh = usernameTokenHeader('district-app', districtSecret, { digest: true, created: TEST_TODAY });
    expect((await studentCall(`/alpha${STUDENTS}`, {}, fresh)).status).toBe(200);
  });

  it('keeps a school’s own caller at its school', async () => {
    const auth = { Authorization: basic('alpha-app', secretOfAlpha) };
    expect((await studentCall(`/alpha${STUDENTS}`, auth)).status).toBe(200);
    for (const path of [`/beta${STUDENTS}`, STUDENTS]) expect((await studentCall(path, auth)).status).toBe(401);
  });

  it('refuses a revoked district caller at every school', async () => {
    const auth = { Authorization: basic('district-app', districtSecret) };
    expect((await studentCall(`/beta${STUDENTS}`, auth)).status).toBe(200);
    const revoked = districtCli(district, ['callers', 'revoke', 'district-app'], OWN_KEYS);
    expect(revoked.status).toBe(0);
    await service.readCallers();
    for (const path of [`/alpha${STUDENTS}`, `/beta${STUDENTS}`, STUDENTS]) {
      expect([path, (await studentCall(path, auth)).status]).toEqual([path, 401]);
    }
  });
});
