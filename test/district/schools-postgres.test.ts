import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { schoolFolder } from '../../src/district/school-list';
import { schoolStoreSettings } from '../../src/district/school-store-place';
import { districtCli, type TestDistrict, withStoreAt } from '../support/district';
import { createDatabase, postgresBinDirectory, startTestPostgres, type TestPostgres } from '../support/postgres';
import { describeOnPostgres } from '../support/tools';

/**
 * A district on PostgreSQL, as the operator runs it: `schools add` makes each school a schema of
 * its own in the deployment's database (migrated), `--school` commands act on that schema alone,
 * and `schools remove --yes` archives the schema with pg_dump, then drops it.
 */

/** The database's schemas that hold a store: a kysely_migration table of their own. */
async function storeSchemas(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select table_schema as name from information_schema.tables where table_name = 'kysely_migration' order by 1",
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

async function countStudents(district: TestDistrict, sourcedId: string): Promise<number> {
  const place = schoolStoreSettings(district.deployment, sourcedId);
  const { n } = await withStoreAt(place, (store) =>
    store.db
      .selectFrom('students')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  );
  return Number(n);
}

describeOnPostgres()('a district on PostgreSQL: a schema per school', () => {
  let cluster: TestPostgres;
  let district: TestDistrict;
  let backups: string;
  let databaseUrl: string;

  beforeAll(async () => {
    cluster = await startTestPostgres();
    databaseUrl = createDatabase(cluster.url, 'district');
    const dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-pg-'));
    backups = mkdtempSync(join(tmpdir(), 'school-district-pg-archives-'));
    const deployment = { databaseUrl, dataDirectory };
    district = {
      settings: { DATA_DIR: dataDirectory, DATABASE_URL: databaseUrl, BACKUP_DIR: backups },
      deployment,
      storeOf: (sourcedId) => schoolStoreSettings(deployment, sourcedId),
      remove: () => rmSync(dataDirectory, { recursive: true, force: true }),
    };
  });

  afterAll(() => {
    district?.remove();
    rmSync(backups, { recursive: true, force: true });
    cluster?.stop();
  });

  it('adds each school as a migrated schema of its own, and nothing in the deployment’s own schema', async () => {
    const added = districtCli(district, ['schools', 'add', 'org-a', '--path', '/alpha']);
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/its store: the schema school_org_a_[0-9a-f]{10} of postgres:/);
    expect(districtCli(district, ['schools', 'add', 'Org.A', '--path', '/other']).status).toBe(0);
    const schemas = await storeSchemas(databaseUrl);
    expect(schemas).toHaveLength(2);
    // Two sourcedIds that read alike in lower case still get two schemas.
    for (const schema of schemas) expect(schema).toMatch(/^school_org_a_[0-9a-f]{10}$/);
    expect(districtCli(district, ['schools', 'remove', 'Org.A', '--yes']).status).toBe(0);
    expect(districtCli(district, ['schools', 'add', 'org-b', '--path', '/beta']).status).toBe(0);
  });

  it('keeps two schools’ records and callers apart, each command on its school’s schema', async () => {
    await withStoreAt(district.storeOf('org-a'), (store) =>
      loadDemoSchool(store, { students: 12, seed: 5, startYear: 2026 }),
    );
    expect(await countStudents(district, 'org-a')).toBe(12);
    expect(await countStudents(district, 'org-b')).toBe(0);
    expect(districtCli(district, ['callers', 'add', 'app-a', '--secret', '--school', 'org-a']).status).toBe(0);
    const listed = (school: string) =>
      (
        JSON.parse(districtCli(district, ['callers', 'list', '--json', '--school', school]).stdout) as {
          name: string;
        }[]
      ).map((caller) => caller.name);
    expect(listed('org-a')).toEqual(['app-a']);
    expect(listed('org-b')).toEqual([]);
    const bundle = join(backups, 'export-a');
    expect(districtCli(district, ['export', bundle, '--school', 'org-a']).status).toBe(0);
    const users = readFileSync(join(bundle, 'users.csv'), 'utf8').trim().split('\n');
    expect(users.filter((line) => line.includes(',student,')).length).toBe(12);
    rmSync(bundle, { recursive: true, force: true });
    // The deployment's own store was never made: only the schools' schemas hold a store.
    expect((await storeSchemas(databaseUrl)).every((schema) => schema.startsWith('school_org_'))).toBe(true);
  });

  it('archives a school removed as pg_dump of its schema alone, then drops the schema', async () => {
    const [schemaOfA, schemaOfB] = await storeSchemas(databaseUrl);
    const dry = districtCli(district, ['schools', 'remove', 'org-a']);
    expect(dry.status).toBe(2);
    expect(dry.stdout).toContain(`the schema ${schemaOfA}`);
    expect(await storeSchemas(databaseUrl)).toEqual([schemaOfA, schemaOfB]);

    const removed = districtCli(district, ['schools', 'remove', 'org-a', '--yes']);
    expect(removed.status).toBe(0);
    expect(await storeSchemas(databaseUrl)).toEqual([schemaOfB]);
    expect(existsSync(schoolFolder(district.deployment.dataDirectory, 'org-a'))).toBe(false);
    // A school's store whose schema went is refused with the reason, never made again elsewhere.
    await expect(withStoreAt(district.storeOf('org-a'), async () => undefined)).rejects.toThrow(
      "no schema of the store's search_path exists",
    );
    const archives = readdirSync(backups).filter((name) => name.startsWith('school-org-a-'));
    expect(archives).toEqual([expect.stringMatching(/^school-org-a-\d{8}T\d{6}Z\.dump$/)]);
    const archive = join(backups, archives[0]);
    expect(readFileSync(archive).subarray(0, 5).toString('latin1')).toBe('PGDMP');

    // The archive restores the school's schema whole, and holds no other school's.
    const listing = spawnSync(join(postgresBinDirectory() as string, 'pg_restore'), ['--list', archive], {
      encoding: 'utf8',
    });
    expect(listing.stdout).toContain(`SCHEMA - ${schemaOfA}`);
    expect(listing.stdout).not.toContain(schemaOfB);
    const restoredUrl = createDatabase(cluster.url, 'restored');
    const restored = spawnSync(
      join(postgresBinDirectory() as string, 'pg_restore'),
      ['--dbname', restoredUrl, archive],
      {
        encoding: 'utf8',
      },
    );
    expect([restored.status, restored.stderr]).toEqual([0, '']);
    const client = new Client({ connectionString: restoredUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`select count(*)::int as n from ${schemaOfA}.students`);
      expect(rows[0].n).toBe(12);
    } finally {
      await client.end();
    }
  });
});
