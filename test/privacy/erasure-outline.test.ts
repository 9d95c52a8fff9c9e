import { describeEachEngine } from '../support/engines';
import { importSmallSchool } from '../support/provider-client';
import { withTestStore } from '../support/stores';
import { runStoreCli } from '../support/subject-cli';

/**
 * The outline an import saves for the OneRoster provider (roster_outlines) names users by
 * sourcedId and the roles kept of stored users: an erasure deletes it, and the provider works it
 * out again from what the store holds after the erasure.
 */
describeEachEngine('an erasure and the outline the import saved', (engine) => {
  test('the import saves the outline; erasing a student deletes it', async () => {
    const settings = engine.freshStoreSettings();
    await importSmallSchool(settings);
    const saved = await withTestStore(settings, (store) =>
      store.db.selectFrom('roster_outlines').selectAll().execute(),
    );
    expect(saved).toEqual([
      expect.objectContaining({ file: 'users.csv', outline: expect.stringContaining('admin-1') }),
    ]);
    const student = await withTestStore(settings, async (store) =>
      Number((await store.db.selectFrom('students').select('id').orderBy('id').executeTakeFirstOrThrow()).id),
    );
    const erased = await runStoreCli(settings, 'subject', 'erase', '--student', String(student), '--reason', 'asked');
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased student ${student}.`) });
    const left = await withTestStore(settings, (store) => store.db.selectFrom('roster_outlines').selectAll().execute());
    expect(left).toEqual([]);
  });
});
