import { spawnSync } from 'node:child_process';
import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { addTestCallers, basic, REMOTE_TEST_SETTINGS, remoteCall } from '../support/callers';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { callJson } from '../support/json-calls';
import { type LegacyStandIn, startLegacyStandIn, stringDocuments } from '../support/legacy-asmx';
import { type ScopedView, scopedViews } from '../support/scoped-school';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * What this service keeps of calls the legacy service answered: the audit trail records the
 * records a forwarded read asked for and those the legacy answer named, so that `school-service
 * audit --student N` finds them; and the shadow report's examples of a child's record are masked,
 * a teacher's note included, but for fields known to be no one's (ids, counts, codes).
 */
const INFO = '/GetStudentsInformation.asmx';

interface AuditedCall {
  readonly caller: string;
  readonly operation: string;
  readonly subjects: ReadonlyArray<{ kind: string; subjectId: number }>;
}

describeEachEngine('records of forwarded calls', ({ freshStoreSettings }) => {
  let settings: Record<string, string>;
  let guardian: ScopedView;
  let secret: string;
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;

  const start = async (routes: string) => {
    service = await startTestService(
      {
        ...REMOTE_TEST_SETTINGS,
        ...settings,
        DEMO_DATA: 'off',
        CONTRACT: 'typed',
        LEGACY_URL: legacy.url,
        ROUTES: routes,
        SHADOW_FLUSH_MS: '20',
        SHADOW_NOISE_SAMPLE: '0',
      },
      { now: () => TEST_TODAY },
    );
    return service;
  };
  const audit = (...args: string[]): AuditedCall[] => {
    const run = spawnSync(process.execPath, cliArguments('audit', ...args, '--json'), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: '', DATABASE_URL: '', ...settings },
      encoding: 'utf8',
    });
    expect([run.status, run.stdout.length > 0]).toEqual([0, true]);
    return JSON.parse(run.stdout) as AuditedCall[];
  };

  beforeAll(async () => {
    settings = freshStoreSettings();
    const school: Store = await openTestSchool(settings);
    try {
      guardian = (await scopedViews(school.db)).guardian;
      ({ parent: secret } = await addTestCallers(school, [
        { name: 'parent', secret: true, scope: guardian.scope, operations: ['all'] },
      ]));
    } finally {
      await school.close();
    }
  });
  beforeEach(async () => {
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  test('a guardian reads their child through the legacy route: the audit command finds it', async () => {
    const child = guardian.seenStudent;
    for (const [key, document] of stringDocuments('GetStudentInfoById', `<StudentId>${child}</StudentId>`)) {
      legacy.documents.set(key, document);
    }
    const { url } = await start('default=legacy');
    const answer = await remoteCall(url, INFO, 'GetStudentInfoById', { StudentId: String(child) }, 'soap11', {
      headers: { Authorization: basic('parent', secret) },
    });
    expect(answer.text).toContain(`<StudentId>${child}</StudentId>`);
    await service?.writeAudit();
    expect(audit('--student', String(child))).toEqual([
      expect.objectContaining({
        caller: 'parent',
        operation: 'GetStudentInfoById',
        subjects: [{ kind: 'student', subjectId: child }],
      }),
    ]);
  });

  test('the students and classes a legacy answer names are in the trail, beside those asked for', async () => {
    const [named, namedClass] = [guardian.unseenStudent, guardian.unseenClass];
    const result = `<GeneralNote><ClassId>${namedClass}</ClassId><StudentId>${named}</StudentId></GeneralNote>`;
    for (const [key, document] of stringDocuments('GetStudentsGnote', result)) legacy.documents.set(key, document);
    const { url } = await start('default=shadow');
    const response = await fetch(`${url}/GetGeneralNoteByClasssID.asmx/GetStudentsGnote?ClassID=${guardian.seenClass}`);
    expect(await response.text()).toContain(`<StudentId>${named}</StudentId>`);
    await service?.writeAudit();
    const [found] = audit('--student', String(named)).filter((entry) => entry.operation === 'GetStudentsGnote');
    expect(found?.subjects).toEqual(
      expect.arrayContaining([
        { kind: 'student', subjectId: named },
        { kind: 'class', subjectId: namedClass },
        { kind: 'class', subjectId: guardian.seenClass },
      ]),
    );
  });

  test("shadow examples of a child's notes are masked: the note's text too, its ids kept", async () => {
    const { url } = await start('GetStudentNoteByID=canary');
    const ask = () => callJson(url, '/GetStudnetNote2.asmx', 'GetStudentNoteByID', { STDid: guardian.seenStudent });
    const here = (await ask()).body.d as Array<Record<string, unknown>>;
    expect(here.length).toBeGreaterThan(0);
    const remark = 'Was upset in class after a quarrel at home';
    const theirs = here.map((note) => ({ ...note, Text: remark, TeacherId: 424242 }));
    legacy.documents.set('GetStudentNoteByID json', {
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ d: theirs }),
    });
    const report = () => shadowReport((service as RunningService).store, { operation: 'GetStudentNoteByID' });
    await ask();
    const found = await eventually(report, (figures) => figures.differences.some((d) => d.path === '/d/*/Text'));
    const byPath = Object.fromEntries(found.differences.map((d) => [d.path, [d.localExample, d.legacyExample]]));
    expect(byPath['/d/*/Text']).toEqual([
      `${String(here[0].Text)[0]}…(${[...String(here[0].Text)].length})`,
      `W…(${remark.length})`,
    ]);
    expect(byPath['/d/*/TeacherId']).toEqual([String(here[0].TeacherId), '424242']);
    expect(JSON.stringify(found)).not.toContain('quarrel');
  });
});
