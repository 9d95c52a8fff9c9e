import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_START_DEMO_STUDENTS } from '../../src/school/first-open';
import { startTestService } from '../support/service';

/** A new embedded store gets the small demo school on first start, once, unless DEMO_DATA=off. */

async function studentCount(settings: Record<string, string>): Promise<number> {
  const service = await startTestService(settings);
  try {
    const row = await service.store.db
      .selectFrom('students')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await service.close();
  }
}

describe('first start of the embedded store', () => {
  test('fills a new store with the demo school, and does not fill it again', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'school-first-start-'));
    expect(await studentCount({ DATA_DIR: dataDirectory })).toBe(FIRST_START_DEMO_STUDENTS);
    expect(await studentCount({ DATA_DIR: dataDirectory })).toBe(FIRST_START_DEMO_STUDENTS);
  });

  test('leaves the store empty with DEMO_DATA=off', async () => {
    expect(await studentCount({ DEMO_DATA: 'off' })).toBe(0);
  });
});
