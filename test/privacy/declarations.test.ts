import { PERSONAL_DATA } from '../../src/store/privacy/declarations';
import { storeColumns } from '../../src/store/privacy/store-columns';
import { describeEachEngine } from '../support/engines';
import { withTestStore } from '../support/stores';

/**
 * Every table and column a migrated store really has is declared (whether it is personal data,
 * whose, why and for how long), and nothing is declared that the store lacks: a migration that adds
 * a column without its declaration fails here, on either engine.
 */

function declaredColumns(): string[] {
  return Object.entries(PERSONAL_DATA)
    .flatMap(([table, declaration]) => Object.keys(declaration.columns).map((column) => `${table}.${column}`))
    .sort();
}

describeEachEngine('the declarations of personal data', (engine) => {
  test('name exactly the tables and columns of a migrated store', async () => {
    const real = await withTestStore(engine.freshStoreSettings(), (store) => storeColumns(store));
    const columns = real.map(({ table, column }) => `${table}.${column}`).sort();
    expect(columns.length).toBeGreaterThan(100);
    expect(declaredColumns()).toEqual(columns);
  });

  test('say why and for how long of every table, and whose of every personal column', () => {
    for (const [table, declaration] of Object.entries(PERSONAL_DATA)) {
      expect([table, declaration.why.length > 0, declaration.kept.length > 0]).toEqual([table, true, true]);
      for (const column of Object.values(declaration.columns)) {
        if (typeof column !== 'string') expect(['student', 'guardian', 'teacher', 'caller']).toContain(column.whose);
      }
    }
  });
});
