import {
  bundleFile,
  IMPORT_ORDER,
  ONEROSTER_12_COLLECTIONS,
  ONEROSTER_COLLECTIONS,
  OWN_FILE_COLLECTIONS,
} from '../../src/roster/collections/registry';

/**
 * The import reads the files of a bundle in the registry's order, each collection's reader named
 * by its module: a collection added to the registry but not to that order would never be read.
 */
describe("the import's order of files", () => {
  const names: readonly string[] = IMPORT_ORDER.map((collection) => collection.name);

  test('holds every collection of the registry once', () => {
    const registered = [...ONEROSTER_COLLECTIONS, ...ONEROSTER_12_COLLECTIONS, ...OWN_FILE_COLLECTIONS].map(
      (collection) => collection.name,
    );
    expect([...names].sort()).toEqual([...registered].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  test('reads what a row names before it: orgs first, the grade levels before the classes, results last', () => {
    const readsBefore = (first: string, then: string) => expect(names.indexOf(first)).toBeLessThan(names.indexOf(then));
    expect(names[0]).toBe('orgs');
    expect(names.at(-1)).toBe('results');
    readsBefore('gradeLevels', 'classes');
    readsBefore('roles', 'users');
    readsBefore('enrollments', 'attendance');
    readsBefore('scoreScales', 'lineItems');
  });

  test("a file's tables come from its module; OneRoster's are declared, all but results kept whole", () => {
    const file = (name: string) => {
      const found = IMPORT_ORDER.find((collection) => collection.name === name);
      if (!found) throw new Error(`no collection ${name}`);
      return bundleFile(found);
    };
    expect(file('users')).toEqual({
      name: 'users',
      oneRoster: true,
      keepsRows: true,
      fills: ['students', 'teachers', 'guardians'],
    });
    expect(file('results')).toMatchObject({ oneRoster: true, keepsRows: false, fills: ['marks'] });
    expect(file('demographics').fills).toEqual([]);
    expect(file('roles')).toMatchObject({ oneRoster: true, keepsRows: true, fills: [] });
    expect(file('attendance')).toEqual({
      name: 'attendance',
      oneRoster: false,
      keepsRows: false,
      fills: ['attendance'],
    });
    expect(file('gradeLevels')).toMatchObject({ oneRoster: false, fills: ['grade_levels'] });
  });
});
