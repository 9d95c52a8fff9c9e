import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { csvText, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A CSV syntax error is reported once, at its own file, line and column; the rows that name the
 * broken file's records are not listed one by one but counted in one line.
 */
describe('a file that cannot be read', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore({ DATA_DIR: join(require('node:os').tmpdir(), `errors-${process.hrtime.bigint()}`) });
  });
  afterEach(() => store.close());

  /** The bundle with one line of one file replaced by text written as is. */
  const broken = (file: string, line: number, text: string) => {
    const rows = smallSchool();
    const folder = writeBundle(rows);
    const lines = csvText(rows[file]).split('\n');
    lines[line - 1] = text;
    writeFileSync(join(folder, `${file}.csv`), lines.join('\n'));
    return folder;
  };

  test.each([
    ['users', 3, 's2,,,true,sch-1,student,s2,Sa"ra,Ali,,1002,,0551112222,g1', 3, 8],
    ['classes', 4, 'math-7a,Math "7A,07,c-math,,scheduled,sch-1,"t1,t2"', 4, 2],
    ['enrollments', 5, 'e4,"math-7a,sch-1,s1,student,', 5, 2],
  ])(
    'a stray quote in %s.csv is one problem at line %d, and the rows that depend on it one warning',
    async (file, line, text, at, column) => {
      const outcome = await importBundle(store, broken(file, line, text));
      const problems = problemsOf(outcome);
      expect(problems).toEqual([expect.objectContaining({ file: `${file}.csv`, line: at, column, rule: 'bad-file' })]);
      const skipped = outcome.problems.warnings().warnings.filter((warning) => warning.kind === 'rows-skipped');
      expect(skipped).toEqual([expect.objectContaining({ file: `${file}.csv`, line: at })]);
      expect(skipped[0].message).toMatch(/^\d+ rows of other files name records of/);
      expect(outcome.written).toBe(false);
    },
  );
});

describeEachEngine('a delta that changes a student without their guardian', (engine) => {
  test('keeps the guardian relation the store has', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
      const before = await store.db.selectFrom('student_guardians').select('relation').execute();
      expect(before.map((row) => row.relation).sort()).toEqual(['guardian', 'parent', 'parent']);
      const full = smallSchool();
      const s3 = full.users.find((row) => row.sourcedId === 's3');
      if (!s3) throw new Error('no s3');
      const delta = {
        manifest: [
          { propertyName: 'manifest.version', value: '1.0' },
          { propertyName: 'oneroster.version', value: '1.1' },
          { propertyName: 'file.users', value: 'delta' },
        ],
        users: [{ ...s3, status: 'active', dateLastModified: '2026-11-02T08:00:00Z', givenName: 'Omar2' }],
      };
      expect(problemsOf(await importBundle(store, writeBundle(delta)))).toEqual([]);
      const after = await store.db.selectFrom('student_guardians').select('relation').execute();
      expect(after.map((row) => row.relation).sort()).toEqual(['guardian', 'parent', 'parent']);
    } finally {
      await store.close();
    }
  });
});
