import { sql } from 'kysely';
import { Client } from 'pg';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { startTestService } from '../support/service';

/**
 * GET /healthz and /readyz: cheap answers for a balancer and for monitoring, without credentials,
 * to the machine itself, to TRUSTED_PROXIES and to METRICS_NETWORKS only. Here the service is
 * behind a proxy on 127.0.0.1, so a caller's address is the one the proxy forwards.
 */

const PROXY_SETTINGS = {
  TRUSTED_PROXIES: '127.0.0.1/32,10.9.0.0/16',
  METRICS_NETWORKS: '10.1.0.0/16',
  LOCAL_NETWORKS: '127.0.0.1/32',
};

async function probe(
  service: RunningService,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${service.url}${path}`, init);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const from = (address: string): RequestInit => ({ headers: { 'X-Forwarded-For': address } });

describeEachEngine('Health and readiness', ({ engine, freshStoreSettings }) => {
  let storeSettings: Record<string, string>;
  let service: RunningService;

  beforeAll(async () => {
    storeSettings = freshStoreSettings();
    service = await startTestService({ ...storeSettings, ...PROXY_SETTINGS });
  });
  afterAll(() => service?.close());

  test('/healthz answers ok and /readyz ready, without credentials, and not cached', async () => {
    const health = await probe(service, '/healthz');
    expect([health.status, health.text, health.headers.get('content-type')]).toEqual([
      200,
      'ok\n',
      'text/plain; charset=utf-8',
    ]);
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await probe(service, '/readyz');
    expect([ready.status, ready.text]).toEqual([200, 'ready\n']);
    const head = await probe(service, '/readyz', { method: 'HEAD' });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  test('answered to the proxies and the monitoring networks; a caller from outside is refused', async () => {
    // A balancer's own check: a trusted proxy, forwarding no one else's address.
    expect((await probe(service, '/readyz', from('10.9.0.7'))).status).toBe(200);
    expect((await probe(service, '/healthz', from('10.1.4.4'))).status).toBe(200);
    for (const path of ['/healthz', '/readyz']) {
      const outside = await probe(service, path, from('203.0.113.9'));
      expect([outside.status, outside.text]).toEqual([
        403,
        `${path} is answered only to this machine, TRUSTED_PROXIES and METRICS_NETWORKS.\n`,
      ]);
    }
  });

  test('only GET and HEAD', async () => {
    const posted = await probe(service, '/healthz', { method: 'POST', body: 'x' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  test('not ready while the store lacks a migration of this version, or has one it does not know', async () => {
    const { db } = service.store;
    await sql`delete from kysely_migration where name = '006-service-processes'`.execute(db);
    try {
      expect(await probe(service, '/readyz')).toMatchObject({
        status: 503,
        text: 'store not migrated: missing 006-service-processes\n',
      });
      // Answering is not the store's business: the process itself is alive.
      expect((await probe(service, '/healthz')).status).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values ('006-service-processes', '2026-11-25')`.execute(
        db,
      );
    }
    await sql`insert into kysely_migration (name, timestamp) values ('999-from-the-future', '2027-01-01')`.execute(db);
    try {
      expect(await probe(service, '/readyz')).toMatchObject({
        status: 503,
        text: 'store migrated by a newer version: 999-from-the-future unknown here\n',
      });
    } finally {
      await sql`delete from kysely_migration where name = '999-from-the-future'`.execute(db);
    }
    expect((await probe(service, '/readyz')).status).toBe(200);
  });

  test('a stopping process answers /readyz with 503 and closes each connection after its answer', async () => {
    const stopping = await startTestService({ ...freshStoreSettings(), SHUTDOWN_DELAY_MS: '3000' });
    const drained = stopping.drain();
    try {
      const ready = await probe(stopping, '/readyz');
      expect([ready.status, ready.text]).toEqual([
        503,
        'stopping: the process is finishing the calls it has and takes no more\n',
      ]);
      expect(ready.headers.get('connection')).toBe('close');
      expect((await probe(stopping, '/healthz')).status).toBe(200);
    } finally {
      await drained;
    }
    await expect(fetch(`${stopping.url}/healthz`)).rejects.toThrow();
  });

  if (engine === 'postgres') {
    test('a store that went away makes /readyz answer 503 at once, and ready again once it is back', async () => {
      const database = new URL(storeSettings.DATABASE_URL).pathname.slice(1);
      const admin = new URL(storeSettings.DATABASE_URL);
      admin.pathname = '/postgres';
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      const rename = async (name: string, to: string) => {
        // The service's connections are ended first; its pool may open one again before the rename.
        for (let attempt = 0; ; attempt += 1) {
          await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
          try {
            await client.query(`alter database "${name}" rename to "${to}"`);
            return;
          } catch (error) {
            if (attempt > 20) throw error;
          }
        }
      };
      try {
        await rename(database, `${database}_away`);
        const gone = await probe(service, '/readyz');
        expect(gone.status).toBe(503);
        expect(gone.text).toMatch(/^store unreachable: .*does not exist\n$/);
        await rename(`${database}_away`, database);
        const back = await eventually(
          () => probe(service, '/readyz'),
          (answer) => answer.status === 200,
        );
        expect([back.status, back.text]).toEqual([200, 'ready\n']);
      } finally {
        await client.end();
      }
    });
  }
});
