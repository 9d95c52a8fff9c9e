import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArguments, ROOT } from '../support/cli';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * An operator imports a bundle of attendance changes whose manifest declares every OneRoster file
 * absent: without a word of delta it is refused with exit code 2 at the manifest's line, the
 * school untouched; with `processingMode,delta` it is applied as a delta.
 */
describe('school-service import of a manifest of no OneRoster file', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-import-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '' },
      encoding: 'utf8',
    });
  const rows = async () => {
    const store = await openTestStore({ DATA_DIR: folder });
    try {
      return await schoolRows(store);
    } finally {
      await store.close();
    }
  };
  const changes = (processingMode: BundleRows['manifest']) =>
    writeBundle({
      ...deltaBundle({
        attendance: [
          {
            sourcedId: 'a2',
            status: 'tobedeleted',
            dateLastModified: '2026-11-02T08:00:00Z',
            studentSourcedId: '',
            classSourcedId: '',
            date: '',
            kind: '',
            absenceTypeSourcedId: '',
            minutesLate: '',
            note: '',
          },
        ],
      }),
      ...(processingMode.length > 0 ? { manifest: [...deltaBundle({}).manifest, ...processingMode] } : {}),
    });

  test('is refused whole without processingMode,delta and applied as a delta with it', async () => {
    expect(run('import', writeBundle(smallSchool())).status).toBe(0);
    const before = await rows();
    const refused = run('import', changes([]), '--skip-invalid');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^manifest\.csv:4:1: bulk-of-nothing: the manifest declares every OneRoster file absent/m,
    );
    expect(await rows()).toEqual(before);
    const applied = run('import', changes([{ propertyName: 'processingMode', value: 'delta' }]));
    expect([applied.status, applied.stdout]).toEqual([0, expect.stringContaining('delta import imported')]);
    const after = await rows();
    expect(after.attendance).toHaveLength(before.attendance.length - 1);
    expect(after.students).toEqual(before.students);
  });
});
