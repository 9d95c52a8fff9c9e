import { describeEachEngine } from '../support/engines';
import { importedDumps } from '../support/imported-dumps';
import { type BundleRows, smallSchool } from '../support/roster-bundle';

/**
 * A student and a guardian are linked when either's agentSourcedIds names the other. A delta that
 * lists one side only keeps the links the unlisted side's own row names: the same store as a bulk
 * import of the changed school.
 */
const CHANGED = '2026-11-01T10:00:00.000Z';

function usersDelta(rows: BundleRows, changes: Record<string, Record<string, string>>): BundleRows {
  return {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      { propertyName: 'file.users', value: 'delta' },
    ],
    users: rows.users
      .filter((row) => changes[row.sourcedId])
      .map((row) => ({ ...row, ...changes[row.sourcedId], status: 'active', dateLastModified: CHANGED })),
  };
}

function changed(rows: BundleRows, changes: Record<string, Record<string, string>>): BundleRows {
  const copy = structuredClone(rows);
  copy.users = copy.users.map((row) => ({ ...row, ...changes[row.sourcedId] }));
  return copy;
}

/** The small school, but Huda names her child Omar and Omar names no guardian. */
function guardianNamesChild(): BundleRows {
  return changed(smallSchool(), { s3: { agentSourcedIds: '' }, g2: { agentSourcedIds: 's3' } });
}

describeEachEngine('a delta of one side of guardian links', (engine) => {
  const { imported, close } = importedDumps(engine);
  afterAll(close);

  const expectSameAsBulk = async (school: BundleRows, changes: Record<string, Record<string, string>>) => {
    const delta = await imported(school, usersDelta(school, changes));
    const bulk = await imported(changed(school, changes));
    expect(delta.tables.student_guardians).toEqual(bulk.tables.student_guardians);
    expect(delta.tables).toEqual(bulk.tables);
    return delta.tables.student_guardians;
  };

  test('a guardian listed without agents keeps the children who name them', async () => {
    const links = await expectSameAsBulk(smallSchool(), { g1: { phone: '0500000009' } });
    expect(links).toHaveLength(3);
  });

  test('a student listed without agents keeps the guardian who names them', async () => {
    const links = await expectSameAsBulk(guardianNamesChild(), { s3: { givenName: 'Omar Jr' } });
    expect(links).toHaveLength(3);
  });

  test('a link only the listed side named goes when that side names it no more', async () => {
    const links = await expectSameAsBulk(smallSchool(), { s1: { agentSourcedIds: '' } });
    expect(links).toHaveLength(2);
  });

  test('a link the unlisted side names stays when the listed side names it no more', async () => {
    const school = changed(smallSchool(), { g1: { agentSourcedIds: 's1' } });
    const links = await expectSameAsBulk(school, { s1: { agentSourcedIds: '' } });
    expect(links).toHaveLength(3);
  });
});
