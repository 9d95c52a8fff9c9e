import { join } from 'node:path';
import { schoolFolder } from '../../src/district/school-list';
import { schoolStoreSettings } from '../../src/district/school-store-place';
import { schoolStoresOf } from '../../src/store/engines';

/**
 * Where a registered school's store is, worked out without a store: on SQLite a file in the
 * school's folder; on PostgreSQL the deployment's database, with the school's own schema as the
 * search_path of every connection, named so that no two sourcedIds share one and no name needs
 * quoting. The stores themselves are opened in school-isolation.test.ts and schools-postgres.test.ts.
 */

const DATA_DIR = '/srv/district';

function optionsOf(databaseUrl: string | undefined): string | null {
  return new URL(databaseUrl ?? '').searchParams.get('options');
}

describe('where a school’s store is', () => {
  it('is a file in the school’s own folder on SQLite', () => {
    const settings = schoolStoreSettings({ databaseUrl: undefined, dataDirectory: DATA_DIR }, 'org-north');
    expect(settings).toEqual({ databaseUrl: undefined, dataDirectory: schoolFolder(DATA_DIR, 'org-north') });
    expect(schoolStoresOf(settings).where(settings)).toBe(join(schoolFolder(DATA_DIR, 'org-north'), 'school.sqlite'));
  });

  it('is a schema of the deployment’s database on PostgreSQL, the search_path of its connections', () => {
    const deployment = { databaseUrl: 'postgres://svc:s3cret@db.example.org:5432/district', dataDirectory: DATA_DIR };
    const settings = schoolStoreSettings(deployment, 'org-north');
    expect(settings.dataDirectory).toBe(schoolFolder(DATA_DIR, 'org-north'));
    const url = new URL(settings.databaseUrl ?? '');
    expect([url.username, url.password, url.host, url.pathname]).toEqual([
      'svc',
      's3cret',
      'db.example.org:5432',
      '/district',
    ]);
    expect(optionsOf(settings.databaseUrl)).toMatch(/^-c search_path=school_org_north_[0-9a-f]{10}$/);
    // libpq (pg_dump, pg_restore) decodes %-escapes only: a "+" would reach the server as it is.
    expect(settings.databaseUrl).toContain('options=-c%20search_path%3Dschool_org_north_');
    const where = schoolStoresOf(settings).where(settings);
    expect(where).toMatch(
      /^the schema school_org_north_[0-9a-f]{10} of postgres:\/\/svc@db\.example\.org:5432\/district$/,
    );
    expect(where).not.toContain('s3cret');
  });

  it('keeps the deployment’s own connection options and parameters beside the search_path', () => {
    const deployment = {
      databaseUrl: 'postgres://svc@db/district?sslmode=require&options=-c%20statement_timeout%3D5000',
      dataDirectory: DATA_DIR,
    };
    const settings = schoolStoreSettings(deployment, 'org-north');
    expect(new URL(settings.databaseUrl ?? '').searchParams.get('sslmode')).toBe('require');
    expect(optionsOf(settings.databaseUrl)).toMatch(/^-c statement_timeout=5000 -c search_path=school_org_north_/);
  });

  it('gives every sourcedId a schema of its own, a plain name within PostgreSQL’s 63 characters', () => {
    const deployment = { databaseUrl: 'postgres://svc@db/district', dataDirectory: DATA_DIR };
    const sourcedIds = ['org-a', 'org.a', 'Org-A', 'ORG_A', 'x'.repeat(64), `${'x'.repeat(63)}y`];
    const schemas = sourcedIds.map((sourcedId) =>
      optionsOf(schoolStoreSettings(deployment, sourcedId).databaseUrl)?.replace('-c search_path=', ''),
    );
    expect(new Set(schemas).size).toBe(sourcedIds.length);
    for (const schema of schemas) expect(schema).toMatch(/^school_[a-z0-9_]{1,56}$/);
  });
});
