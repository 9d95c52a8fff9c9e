import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import {
  addUniqueChild,
  UNIQUE_CHILD,
  uniqueValues,
  startScannedSchool,
  vacuumAndCheckpoint,
  valuesInFiles,
} from '../support/privacy-subject';
import { withTestStore } from '../support/stores';
import { runStoreCli } from '../support/subject-cli';
import { callOperation } from '../support/typed-calls';

/**
 * The right of access and the right to erasure, as an operator exercises them on a running
 * service: `subject export` writes everything held about a child; `subject erase` removes it, and
 * afterwards no file of the store (on SQLite the database, its log and free pages; on PostgreSQL
 * the cluster's data folder after VACUUM and CHECKPOINT) holds any of the child's values, while the
 * service answers the child's id as it answers an id it never knew, and the audit trail keeps the id.
 */

const INFO = '/GetStudentsInformation.asmx';
const NEVER_KNOWN = '987654';

async function studentAnswer(service: RunningService, id: string): Promise<unknown> {
  const answer = await callOperation(service.url, INFO, 'GetStudentInfoById', { StudentId: id }, 'json');
  return [answer.status, answer.result];
}

describeEachEngine('a child exported and erased on a running service', (engine) => {
  let settings: Record<string, string>;
  let service: RunningService | undefined;
  let childId: number;

  beforeAll(async () => {
    const storeSettings = { DEMO_DATA: 'off', CONTRACT: 'typed', AUDIT_FLUSH_MS: '50', LOG_LEVEL: 'error' };
    ({ service, settings } = await startScannedSchool(
      { ...engine.freshStoreSettings(), ...storeSettings },
      async (store) => {
        childId = await addUniqueChild(store);
      },
    ));
  });

  afterAll(async () => {
    await service?.close();
  });

  test('the export holds the child, the erasure leaves none of their values in any file of the store', async () => {
    const live = service as RunningService;
    const shown = JSON.stringify(await studentAnswer(live, String(childId)));
    expect(shown).toContain(UNIQUE_CHILD.nameEn);
    const folders = [settings.DATA_DIR, ...engine.storeFolders()];
    expect(Object.keys(valuesInFiles(folders, uniqueValues())).sort()).toEqual(uniqueValues().sort());
    await eventually(
      () =>
        withTestStore(settings, (store) =>
          store.db.selectFrom('audit_subjects').selectAll().where('subject_id', '=', childId).execute(),
        ),
      (rows) => rows.length > 0,
    );

    const out = join(mkdtempSync(join(tmpdir(), 'school-subject-')), 'export');
    const exported = await runStoreCli(settings, 'subject', 'export', '--student', String(childId), out);
    expect(exported).toEqual({ code: 0, output: expect.stringContaining(`about student ${childId}`) });
    const file = (name: string) => readFileSync(join(out, name), 'utf8');
    expect(file('students.json')).toContain(UNIQUE_CHILD.nameAr);
    expect(file('student_notes.json')).toContain(UNIQUE_CHILD.noteText);
    expect(file('attendance.json')).toContain(UNIQUE_CHILD.absenceNote);
    expect(file('outbox_messages.json')).toContain(UNIQUE_CHILD.guardianPhone);
    expect(file('outbox_messages.json')).toContain('"payload": "(sealed)"');
    expect(file('roster_fields.json')).toContain(UNIQUE_CHILD.birthDate);
    expect(JSON.parse(file('audit.json')).rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ operation: 'GetStudentInfoById' })]),
    );
    expect(readFileSync(join(out, 'personal-data.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const guardianId = await withTestStore(
      settings,
      async (store) =>
        (
          await store.db
            .selectFrom('student_guardians')
            .select('guardian_id')
            .where('student_id', '=', childId)
            .executeTakeFirstOrThrow()
        ).guardian_id,
    );
    const guardianOut = `${out}-guardian`;
    expect((await runStoreCli(settings, 'subject', 'export', '--guardian', String(guardianId), guardianOut)).code).toBe(
      0,
    );
    expect(readFileSync(join(guardianOut, 'guardians.json'), 'utf8')).toContain(UNIQUE_CHILD.guardianNameAr);
    expect(readFileSync(join(guardianOut, 'devices.json'), 'utf8')).toContain(UNIQUE_CHILD.pushToken);

    // A backup from before the erasure, where the operator keeps them: the erasure names it with its date.
    const backups = mkdtempSync(join(tmpdir(), 'school-backups-'));
    writeFileSync(join(backups, 'nightly.dump'), 'PGDMP and the rest of a pg_dump file');
    settings.BACKUP_DIR = backups;

    const rehearsed = await runStoreCli(
      settings,
      'subject',
      'erase',
      '--student',
      String(childId),
      '--reason',
      'x',
      '--dry-run',
    );
    expect(rehearsed).toEqual({ code: 0, output: expect.stringContaining('guardians of no other child, erased with') });
    expect(JSON.stringify(await studentAnswer(live, String(childId)))).toContain(UNIQUE_CHILD.nameEn);

    const erased = await runStoreCli(
      settings,
      'subject',
      'erase',
      '--student',
      String(childId),
      '--reason',
      'left; family asked',
    );
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased student ${childId}.`) });
    const scrubbed =
      engine.engine === 'sqlite'
        ? 'store files: secure_delete, VACUUM, wal_checkpoint(TRUNCATE)'
        : 'store files: ANALYZE, VACUUM FULL, VACUUM FULL pg_statistic, CHECKPOINT, pg_switch_wal, CHECKPOINT';
    expect(erased.output).toContain(scrubbed);
    expect(erased.output).toMatch(
      new RegExp(`still hold the student[^\\n]*\\n  ${join(backups, 'nightly.dump')} \\(postgres, 20`),
    );
    expect(await studentAnswer(live, String(childId))).toEqual(await studentAnswer(live, NEVER_KNOWN));
    await service?.close();
    service = undefined;

    if (engine.engine === 'postgres') await withTestStore(settings, vacuumAndCheckpoint);
    expect(valuesInFiles(folders, uniqueValues())).toEqual({});

    const again = await runStoreCli(settings, 'subject', 'export', '--student', String(childId), `${out}-again`);
    expect(again).toEqual({ code: 2, output: expect.stringContaining(`there is no student ${childId}`) });
    await withTestStore(settings, async (store) => {
      const seen = await store.db
        .selectFrom('audit_subjects')
        .select('subject_id')
        .where('subject_id', '=', childId)
        .execute();
      expect(seen.length).toBeGreaterThan(0);
      const record = await store.db.selectFrom('subject_erasures').selectAll().execute();
      expect(record).toEqual([
        expect.objectContaining({
          kind: 'student',
          subject_id: childId,
          reason: 'left; family asked',
          guardians_erased: 1,
        }),
      ]);
    });
  });
});
