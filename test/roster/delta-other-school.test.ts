import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A district's delta imported with --school: a result of the other school's line item is left out
 * with it, as a bulk import leaves it out, though its student is no user the store ever held.
 */
const CHANGED = '2026-11-01T10:00:00.000Z';

function district(): BundleRows {
  const rows = smallSchool();
  rows.orgs.push({
    sourcedId: 'sch-2',
    name: 'Al-Noor',
    type: 'school',
    parentSourcedId: 'dist-1',
    'metadata.nameEn': '',
  });
  rows.courses.push({
    sourcedId: 'c-art',
    title: 'Art',
    courseCode: 'ART',
    orgSourcedId: 'sch-2',
    'metadata.nameEn': '',
  });
  const math = rows.classes.find((row) => row.sourcedId === 'math-7b') as Record<string, string>;
  rows.classes.push({ ...math, sourcedId: 'art-2', title: 'Art', courseSourcedId: 'c-art', schoolSourcedId: 'sch-2' });
  const pupil = rows.users.find((row) => row.sourcedId === 's3') as Record<string, string>;
  rows.users.push({ ...pupil, sourcedId: 's9', orgSourcedIds: 'sch-2', identifier: '', agentSourcedIds: '' });
  rows.enrollments.push({
    ...rows.enrollments[5],
    sourcedId: 'e9-art',
    classSourcedId: 'art-2',
    userSourcedId: 's9',
    schoolSourcedId: 'sch-2',
  });
  rows.lineItems.push({ ...rows.lineItems[2], sourcedId: 'li-art', classSourcedId: 'art-2' });
  rows.results.push({ ...rows.results[3], sourcedId: 'r-art', lineItemSourcedId: 'li-art', studentSourcedId: 's9' });
  return rows;
}

describeEachEngine('a district delta with --school', (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
  });
  afterAll(() => store.close());

  test('leaves the other school results out without a problem', async () => {
    const rows = district();
    expect(problemsOf(await importBundle(store, writeBundle(rows), { school: 'sch-1' }))).toEqual([]);
    const before = await schoolRows(store);
    const stamp = (row: Record<string, string>) => ({ ...row, status: 'active', dateLastModified: CHANGED });
    const result = rows.results.find((row) => row.sourcedId === 'r-art') as Record<string, string>;
    const delta: BundleRows = {
      manifest: [
        { propertyName: 'manifest.version', value: '1.0' },
        { propertyName: 'oneroster.version', value: '1.1' },
        ...['orgs', 'classes', 'lineItems', 'results'].map((name) => ({
          propertyName: `file.${name}`,
          value: 'delta',
        })),
      ],
      orgs: rows.orgs.map(stamp),
      classes: rows.classes.filter((row) => row.sourcedId === 'art-2').map(stamp),
      lineItems: rows.lineItems.filter((row) => row.sourcedId === 'li-art').map(stamp),
      results: [stamp({ ...result, score: '9' })],
    };
    const outcome = await importBundle(store, writeBundle(delta), { school: 'sch-1' });
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    expect((await schoolRows(store)).marks).toEqual(before.marks);
  });
});
