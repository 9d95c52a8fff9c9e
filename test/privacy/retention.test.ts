import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { addUniqueChild, UNIQUE_CHILD } from '../support/privacy-subject';
import { startTestService } from '../support/service';
import { openTestSchool, withTestStore } from '../support/stores';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { callOperation } from '../support/typed-calls';

/**
 * The retention after leaving: a student withdrawn from their class is listed by `retention
 * --dry-run` once RETENTION_AFTER_LEAVING_DAYS have passed (0 here, so no clock has to move), and
 * the running service erases them by itself, records it as the retention's and counts it in /status.
 */

function runCli(settings: Record<string, string>, ...args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: '', OUTBOX_KEY: TEST_OUTBOX_KEY, LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(process.execPath, cliArguments(...args), { cwd: ROOT, env: { ...env, ...settings } }, (error, out, err) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: out + err }),
    );
  });
}

async function nameShown(service: RunningService, id: number): Promise<boolean> {
  const answer = await callOperation(
    service.url,
    '/GetStudentsInformation.asmx',
    'GetStudentInfoById',
    { StudentId: String(id) },
    'json',
  );
  return answer.text.includes(UNIQUE_CHILD.nameEn);
}

describeEachEngine('the retention after leaving', (engine) => {
  let settings: Record<string, string>;
  let childId: number;
  let service: RunningService | undefined;

  beforeAll(async () => {
    settings = { ...engine.freshStoreSettings(), DEMO_DATA: 'off', CONTRACT: 'typed' };
    if (!settings.DATA_DIR) settings.DATA_DIR = mkdtempSync(join(tmpdir(), 'school-retention-'));
    const store = await openTestSchool(settings);
    try {
      childId = await addUniqueChild(store);
      await store.db
        .updateTable('student_records')
        .set({ status: 'withdrawn' })
        .where('student_id', '=', childId)
        .execute();
    } finally {
      await store.close();
    }
  });

  afterAll(async () => {
    await service?.close();
  });

  test('lists the students who left, by id, only once their days have passed, erasing nothing', async () => {
    const notYet = await runCli({ ...settings, RETENTION_AFTER_LEAVING_DAYS: '30' }, 'retention', '--dry-run');
    expect(notYet).toEqual({ code: 0, output: expect.stringContaining('Would erase 0 students who left 30 or more') });
    const due = await runCli({ ...settings, RETENTION_AFTER_LEAVING_DAYS: '0' }, 'retention', '--dry-run');
    expect(due).toEqual({ code: 0, output: expect.stringContaining(`  student ${childId}, left on `) });
    expect(due.output).not.toContain(UNIQUE_CHILD.nameEn);
    const unset = await runCli(settings, 'retention', '--dry-run');
    expect(unset.code).toBe(2);
    await withTestStore(settings, async (store) => {
      expect(await store.db.selectFrom('students').select('id').where('id', '=', childId).execute()).toHaveLength(1);
      expect(await store.db.selectFrom('students_left').selectAll().execute()).toEqual([]);
    });
  });

  test('the running service erases them by itself and counts them in /status', async () => {
    service = await startTestService(
      { ...settings, RETENTION_AFTER_LEAVING_DAYS: '0' },
      { firstRetentionAfterMs: 200 },
    );
    const live = service;
    expect(
      await eventually(
        () => nameShown(live, childId),
        (shown) => !shown,
      ),
    ).toBe(false);
    // The count is written once the store's files are scrubbed too, a moment after the rows went.
    const status = await eventually(
      async () => (await (await fetch(`${live.url}/status.json`)).json()) as { erasedByRetention: number },
      (report) => report.erasedByRetention === 1,
    );
    expect(status.erasedByRetention).toBe(1);
    await withTestStore(settings, async (store) => {
      const erasures = await store.db.selectFrom('subject_erasures').selectAll().execute();
      expect(erasures).toEqual([
        expect.objectContaining({ subject_id: childId, erased_by: 'retention', guardians_erased: 1 }),
      ]);
      expect(await store.db.selectFrom('students').select('id').where('id', '=', childId).execute()).toEqual([]);
    });
  });
});
