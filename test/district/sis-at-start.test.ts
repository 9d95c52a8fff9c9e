import { writeSchools } from '../../src/district/school-list';
import { configureLog } from '../../src/lib/log';
import type { StatusReport } from '../../src/pages/status-report';
import type { RunningService } from '../../src/service';
import { schoolStoresOf } from '../../src/store/engines';
import { capturedLog } from '../support/captured-log';
import { makeTestDistrict, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { startTestService } from '../support/service';

/**
 * A district school with a SIS schedule of its own (`schools set SIS_URL=…`) is opened when the
 * service starts, not at its first request: its sync runs against a stand-in SIS, and its store
 * fills, while nothing calls the school. Schools are otherwise opened at their first request and
 * looked at for work of their own once a minute (SCHOOLS_IDLE_CLOSE_SECONDS is left at its
 * default), so a sync within seconds of the start is the start's doing. Its log line names the
 * school. On each engine.
 */

const SIS_SCHOOL = 'org-sis';

describeEachEngine('a school that syncs on a schedule of its own, at the start', (engine) => {
  let provider: OneRosterProvider;
  let district: TestDistrict;
  let service: RunningService;

  /** The school's store, read beside the service: its sync runs and its students. */
  const sisStore = () =>
    withStoreAt(district.storeOf(SIS_SCHOOL), async (store) => ({
      runs: await store.db.selectFrom('sis_sync_runs').select(['mode', 'outcome']).execute(),
      students: (await store.db.selectFrom('students').select('id').execute()).length,
    }));

  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    const other = { entry: { sourcedId: 'org-b', path: '/beta' }, students: 5, seed: 3 };
    district = await makeTestDistrict(engine.freshStoreSettings(), [other]);
    // The SIS school's store is made empty, as `schools add` makes it, and listed with its own SIS.
    const place = district.storeOf(SIS_SCHOOL);
    await schoolStoresOf(place).make(place);
    await withStoreAt(place, async () => undefined);
    writeSchools(district.deployment.dataDirectory, [
      other.entry,
      {
        sourcedId: SIS_SCHOOL,
        path: '/sis',
        settings: { ...provider.settings('1.2'), SIS_SYNC_INTERVAL: '15m' },
      },
    ]);
    expect(await sisStore()).toEqual({ runs: [], students: 0 });
  });

  afterAll(async () => {
    configureLog({ logLevel: 'silent', logFormat: 'json' });
    await service?.close();
    await provider?.close();
    district?.remove();
  });

  it('pulls the school from its SIS without a request to the school, its log line naming the school', async () => {
    let synced = await sisStore();
    const lines = await capturedLog(async () => {
      service = await startTestService(
        { DEMO_DATA: 'off', LOG_LEVEL: 'info', ...district.settings },
        { firstSyncAfterMs: 0 },
      );
      synced = await eventually(sisStore, (held) => held.runs.length > 0, { timeoutMs: 20_000, intervalMs: 200 });
    });
    expect(synced.runs).toEqual([{ mode: 'bulk', outcome: 'done' }]);
    const syncLines = lines
      .filter((line) => line.includes('"message":"sis sync"'))
      .map((line) => JSON.parse(line) as { school?: string; outcome?: string });
    expect(syncLines).toEqual([expect.objectContaining({ school: SIS_SCHOOL, outcome: 'done' })]);
    expect(synced.students).toBe(3);
    expect(provider.requests.length).toBeGreaterThan(0);
    // Asked now, after the sync: the deployment's page, which opens no school, counts no call at either.
    const report = (await (await fetch(`${service.url}/status.json`)).json()) as StatusReport;
    expect(report.schools?.map((school) => [school.sourcedId, school.latency.calls])).toEqual([
      ['org-b', 0],
      [SIS_SCHOOL, 0],
    ]);
  });
});
