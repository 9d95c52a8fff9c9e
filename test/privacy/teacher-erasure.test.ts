import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { startScannedSchool, vacuumAndCheckpoint, valuesInFiles } from '../support/privacy-subject';
import { type AddedTeacher, addUniqueTeacher, teacherValues, UNIQUE_TEACHER } from '../support/privacy-teacher';
import { withTestStore } from '../support/stores';
import { runStoreCli } from '../support/subject-cli';
import { callOperation } from '../support/typed-calls';

/**
 * A teacher's right to erasure, as the operator exercises it on a running service: `subject erase
 * --teacher` removes their name, phone number and the SIS's row about them (e-mail included) from
 * every file of the store, while what the school must keep stays without the person: the class
 * they taught still lists its subject, the notes they wrote still answer, by the teacher's id.
 */

const CLASS_NOTES = '/GetGeneralNoteByClasssID.asmx';
const STUDENT_NOTES = '/GetStudnetNote2.asmx';

async function notesAnswers(service: RunningService, added: AddedTeacher): Promise<[number, number, string]> {
  const [forClass, forStudent] = await Promise.all([
    callOperation(service.url, CLASS_NOTES, 'GetStudentsGnote', { ClassID: String(added.classId) }, 'json'),
    callOperation(service.url, STUDENT_NOTES, 'GetStudentNoteByID', { STDid: String(added.studentId) }, 'json'),
  ]);
  return [forClass.status, forStudent.status, JSON.stringify([forClass.result, forStudent.result])];
}

describeEachEngine('a teacher erased on a running service', (engine) => {
  let settings: Record<string, string>;
  let service: RunningService | undefined;
  let added: AddedTeacher;

  beforeAll(async () => {
    const storeSettings = { ...engine.freshStoreSettings(), DEMO_DATA: 'off', CONTRACT: 'typed', LOG_LEVEL: 'error' };
    ({ service, settings } = await startScannedSchool(storeSettings, async (store) => {
      added = await addUniqueTeacher(store);
      // A copy from before, as an import that rewrote the row leaves it: deleted without secure_delete, its
      // bytes stay in the file's free pages until a VACUUM rebuilds it.
      const before = JSON.stringify({ copy: teacherValues().join(' ').repeat(100) });
      await store.db
        .insertInto('roster_fields')
        .values({ file: 'users.csv', sourced_id: 'old', fields: before })
        .execute();
      await store.db.deleteFrom('roster_fields').where('sourced_id', '=', 'old').execute();
    }));
  });

  afterAll(async () => {
    await service?.close();
  });

  test('leaves none of their values in any file, and keeps their classes and notes without them', async () => {
    const live = service as RunningService;
    const id = String(added.teacherId);
    const before = await notesAnswers(live, added);
    expect(before).toEqual([200, 200, expect.stringContaining(UNIQUE_TEACHER.nameEn)]);
    expect(before[2]).toContain(UNIQUE_TEACHER.classNote);
    const folders = [settings.DATA_DIR, ...engine.storeFolders()];
    expect(Object.keys(valuesInFiles(folders, teacherValues())).sort()).toEqual(teacherValues().sort());

    const out = join(mkdtempSync(join(tmpdir(), 'school-subject-')), 'export');
    expect((await runStoreCli(settings, 'subject', 'export', '--teacher', id, out)).code).toBe(0);
    expect(readFileSync(join(out, 'teachers.json'), 'utf8')).toContain(UNIQUE_TEACHER.nameAr);
    expect(readFileSync(join(out, 'roster_fields.json'), 'utf8')).toContain(UNIQUE_TEACHER.email);

    const rehearsed = await runStoreCli(settings, 'subject', 'erase', '--teacher', id, '--reason', 'x', '--dry-run');
    expect(rehearsed.code).toBe(0);
    expect(rehearsed.output).toContain(`Would erase teacher ${id} (dry run`);
    expect(rehearsed.output).toMatch(/kept with the person's name and phone number emptied:\n {2}teachers: 1\n/);
    expect(rehearsed.output).toMatch(/kept without the person[^\n]*\n( {2}\w+: \d+\n)*? {2}teacher_assignments: 1\n/);
    expect((await notesAnswers(live, added))[2]).toContain(UNIQUE_TEACHER.nameEn);

    // The service is called all through the erasure, VACUUM included: every call is answered.
    let erasing = true;
    const statuses: number[] = [];
    const calling = (async () => {
      while (erasing) statuses.push(...(await notesAnswers(live, added)).slice(0, 2).map(Number));
    })();
    const erased = await runStoreCli(settings, 'subject', 'erase', '--teacher', id, '--reason', 'left the school');
    erasing = false;
    await calling;
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased teacher ${id}.`) });
    expect(statuses.length).toBeGreaterThan(2);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    if (engine.engine === 'sqlite') {
      expect(erased.output).toContain('store files: secure_delete, VACUUM, wal_checkpoint(TRUNCATE)');
      // Nothing is left while the service still serves from the file.
      expect(valuesInFiles(folders, teacherValues())).toEqual({});
    }
    expect(erased.output).toMatch(
      /rows:\n {2}outbox_messages: 1\n {2}roster_ids: 1\n {2}roster_fields: 1\n {2}shadow_differences: 1\n/,
    );
    const after = await notesAnswers(live, added);
    expect(after).toEqual([200, 200, expect.stringContaining(UNIQUE_TEACHER.classNote)]);
    expect(after[2]).toContain(UNIQUE_TEACHER.studentNote);
    expect(after[2]).not.toContain(UNIQUE_TEACHER.nameEn);
    await service?.close();
    service = undefined;

    if (engine.engine === 'postgres') await withTestStore(settings, vacuumAndCheckpoint);
    expect(valuesInFiles(folders, teacherValues())).toEqual({});

    // The store reads whole after the service that served through the VACUUM closed.
    const again = await runStoreCli(settings, 'subject', 'export', '--teacher', id, `${out}-again`);
    expect(again).toEqual({ code: 2, output: expect.stringContaining(`there is no teacher ${id}`) });
    await withTestStore(settings, async (store) => {
      const taught = await store.db
        .selectFrom('teacher_assignments')
        .select('class_id')
        .where('teacher_id', '=', added.teacherId)
        .execute();
      expect(taught).toEqual([{ class_id: added.classId }]);
      const record = await store.db.selectFrom('subject_erasures').selectAll().execute();
      expect(record).toEqual([
        expect.objectContaining({ kind: 'teacher', subject_id: added.teacherId, reason: 'left the school' }),
      ]);
    });
  });
});
