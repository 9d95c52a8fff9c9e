import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { payloadSealer } from '../../src/lib/payload-sealer';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { ROOT } from './cli';
import { startTestService } from './service';
import { openTestSchool } from './stores';
import { TEST_OUTBOX_KEY } from './test-key';

/**
 * A child whose every value is a string found nowhere else in the test school, so that a scan of
 * the store's files for it means something: names in Arabic and Latin script, a birth date outside
 * the school's years, phone numbers, the words of a note. Their guardian is guardian of no other child.
 */
export const UNIQUE_CHILD = {
  nameAr: 'زبرجدة قمرالزمان الفريدة',
  nameEn: 'Zyxquorla Pemberwick-Oyelaran',
  birthDate: '2003-07-19',
  phone: '+966534871209',
  guardianNameAr: 'سلسبيل نوراليقين العجيبة',
  guardianNameEn: 'Quillibet Varnsworth-Ekong',
  guardianPhone: '+966512398761',
  pushToken: 'push-token-Xq81kZr3vLw0pTeUnique',
  noteText: 'Draws remarkable heron-and-lighthouse sketches during algebra',
  absenceNote: 'Dentist appointment: wisdom-tooth saga part two',
} as const;

export type UniqueChild = typeof UNIQUE_CHILD;

/** The values that must be gone from every file once the child is erased. */
export function uniqueValues(child: UniqueChild = UNIQUE_CHILD): string[] {
  return [
    child.nameAr,
    child.nameEn,
    child.birthDate,
    child.phone,
    child.guardianNameAr,
    child.guardianNameEn,
    child.guardianPhone,
    child.pushToken,
    child.noteText,
    child.absenceNote,
  ];
}

/** Adds the child to the school in the store, with a guardian, device, message, note, absence, mark and kept fields. */
export async function addUniqueChild(store: Store, child: UniqueChild = UNIQUE_CHILD): Promise<number> {
  const { db } = store;
  const klass = await db
    .selectFrom('classes')
    .select(['id', 'academic_year_id'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const assessment = await db
    .selectFrom('assessments')
    .select('id')
    .where('class_id', '=', klass.id)
    .executeTakeFirstOrThrow();
  const noteType = await db.selectFrom('note_types').select('id').executeTakeFirstOrThrow();
  const teacher = await db.selectFrom('teachers').select('id').executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('students')
    .values({
      name_ar: child.nameAr,
      name_en: child.nameEn,
      gender: 'F',
      birth_date: child.birthDate,
      phone: child.phone,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const record = await db
    .insertInto('student_records')
    .values({
      student_id: id,
      class_id: klass.id,
      academic_year_id: klass.academic_year_id,
      enrolled_on: '2026-09-01',
      status: 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const guardian = await db
    .insertInto('guardians')
    .values({ name_ar: child.guardianNameAr, name_en: child.guardianNameEn, phone: child.guardianPhone })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('student_guardians')
    .values({ student_id: id, guardian_id: guardian.id, relation: 'mother' })
    .execute();
  const device = await db
    .insertInto('devices')
    .values({
      guardian_id: guardian.id,
      application_id: 'app',
      device_id: `device-${id}`,
      push_token: child.pushToken,
      platform: 'android',
      enabled: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const now = '2026-11-20T10:00:00.000Z';
  const payload = payloadSealer(Buffer.from(TEST_OUTBOX_KEY, 'hex')).seal('Your code is 4711');
  const message = { channel: 'sms' as const, payload, idempotency_key: null, state: 'sent' as const, attempts: 1 };
  const common = {
    next_attempt_at: now,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now,
    finished_at: now,
  };
  await db
    .insertInto('outbox_messages')
    .values([
      { ...message, ...common, reference: `sms-${id}`, recipient: child.guardianPhone, device_id: null },
      {
        ...message,
        ...common,
        reference: `push-${id}`,
        channel: 'push',
        recipient: child.pushToken,
        device_id: device.id,
      },
    ])
    .execute();
  await db
    .insertInto('student_notes')
    .values({
      student_id: id,
      note_type_id: noteType.id,
      teacher_id: teacher.id,
      written_on: '2026-11-02',
      text: child.noteText,
    })
    .execute();
  await db
    .insertInto('attendance')
    .values({
      student_record_id: record.id,
      occurred_on: '2026-11-03',
      kind: 'absence',
      absence_type_id: null,
      minutes_late: null,
      note: child.absenceNote,
    })
    .execute();
  await db
    .insertInto('marks')
    .values({ assessment_id: assessment.id, student_record_id: record.id, score: 17 })
    .execute();
  await db
    .insertInto('roster_ids')
    .values({ kind: 'students', sourced_id: `usr-${id}`, id, modified_at: null })
    .execute();
  const fields = { sourcedId: `usr-${id}`, givenName: child.nameEn, birthDate: child.birthDate, phone: child.phone };
  await db
    .insertInto('roster_fields')
    .values({ file: 'users.csv', sourced_id: `usr-${id}`, fields: JSON.stringify(fields) })
    .execute();
  await db
    .insertInto('shadow_differences')
    .values({
      day: '2026-11-20',
      operation: 'GetStudentInfoById',
      binding: 'json',
      path: 'd.Name',
      noisy: 0,
      count: 1,
      local_example: child.nameEn,
      legacy_example: `${child.nameEn} `,
    })
    .execute();
  return id;
}

/**
 * Stops PostgreSQL reusing the write-ahead log's old segments, which it does bytes and all unless
 * told not to (docs/privacy.md): a scan of the cluster's files after an erasure would find the
 * values in a segment kept for reuse. SQLite needs nothing.
 */
export async function withoutWalRecycling(store: Store): Promise<void> {
  if (store.engine.name !== 'postgres') return;
  await sql`alter system set wal_recycle = off`.execute(store.db as Kysely<unknown>);
  await sql`select pg_reload_conf()`.execute(store.db as Kysely<unknown>);
}

/**
 * A service on the test school as an erasure test scans its files: the school with what `prepare`
 * adds, PostgreSQL's log segments kept from reuse, and a DATA_DIR of its own for the service's
 * files where the settings name a database. The settings with that DATA_DIR, for the scan.
 */
export async function startScannedSchool(
  storeSettings: Record<string, string>,
  prepare: (store: Store) => Promise<void>,
): Promise<{ service: RunningService; settings: Record<string, string> }> {
  const settings = {
    ...storeSettings,
    DATA_DIR: storeSettings.DATA_DIR || mkdtempSync(join(tmpdir(), 'school-privacy-')),
  };
  const store = await openTestSchool(settings);
  try {
    await prepare(store);
    await withoutWalRecycling(store);
  } finally {
    await store.close();
  }
  return { service: await startTestService(settings), settings };
}

/**
 * A vacuum and a checkpoint on PostgreSQL after an erasure, so that a scan of the cluster's files
 * reads them settled: the dead tuples' pages rewritten, the log's pages written out.
 */
export async function vacuumAndCheckpoint(store: Store): Promise<void> {
  await sql`vacuum`.execute(store.db as Kysely<unknown>);
  await sql`checkpoint`.execute(store.db as Kysely<unknown>);
}

/**
 * Each value found in a file under the folders, with the files that hold it: nothing when none.
 * The files are read by a process of their own: a test's service serves from the store in the
 * test's process, and a close() of any descriptor of the store's files there would drop the
 * service's SQLite locks on them (see src/store/sqlite/scrub-files.ts).
 */
export function valuesInFiles(folders: readonly string[], values: readonly string[]): Record<string, string[]> {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'files-holding.ts'), JSON.stringify({ folders, values })],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(output) as Record<string, string[]>;
}
