import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { schoolFolder, writeSchools } from '../../src/district/school-list';
import type { StatusReport } from '../../src/pages/status-report';
import type { RunningService } from '../../src/service';
import { eventually } from '../support/eventually';
import { callJson } from '../support/json-calls';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { call } from '../support/legacy-calls';
import { OneRosterProvider, PROVIDER_CLIENT, schoolOf, sisSchool } from '../support/oneroster-provider';
import { schoolRowsIn } from '../support/roster-import';
import { startTestService } from '../support/service';

/**
 * A school's own settings in a running district: school A pulls itself from its own SIS on its own
 * schedule, school B forwards HelloWorld to its own legacy service, and neither takes the other's
 * settings, nor the deployment's SIS or legacy service. Over HTTP, at each school's path. Districts
 * are served on SQLite (see schools-command.test.ts), so this suite runs on SQLite.
 */

async function statusAt(base: string): Promise<StatusReport> {
  return (await (await fetch(`${base}/status.json`)).json()) as StatusReport;
}

/** Polls a school's /status.json until its first sync is recorded: the signal, not a guessed delay. */
async function firstSync(base: string): Promise<StatusReport> {
  for (let tries = 0; tries < 600; tries += 1) {
    const report = await statusAt(base);
    if (report.lastSync?.last) return report;
    await sleep(100);
  }
  throw new Error('no sync was recorded within a minute');
}

describe('a school’s own SIS and legacy settings in a district', () => {
  let provider: OneRosterProvider;
  let legacy: LegacyStandIn;
  let deploymentLegacy: LegacyStandIn;
  let service: RunningService;
  let dataDirectory: string;

  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    legacy = await startLegacyStandIn();
    deploymentLegacy = await startLegacyStandIn();
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-settings-'));
    writeSchools(dataDirectory, [
      { sourcedId: 'org-a', path: '/alpha', settings: { ...provider.settings('1.2'), SIS_SYNC_INTERVAL: '15m' } },
      { sourcedId: 'org-b', path: '/beta', settings: { LEGACY_URL: legacy.url, ROUTES: 'HelloWorld=legacy' } },
    ]);
    service = await startTestService(
      {
        DATA_DIR: dataDirectory,
        DEMO_DATA: 'off',
        // The deployment's own legacy service, which no school may take.
        LEGACY_URL: deploymentLegacy.url,
        ROUTES: 'HelloWorld=legacy',
      },
      { firstSyncAfterMs: 0 },
    );
  });
  afterAll(async () => {
    await service?.close();
    await provider.close();
    await legacy.close();
    await deploymentLegacy.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('syncs the school with its own SIS_URL, and leaves the other school untouched', async () => {
    const report = await firstSync(`${service.url}/alpha`);
    expect(report.lastSync?.last).toMatchObject({ outcome: 'done', mode: 'bulk' });
    expect(JSON.stringify(report)).not.toContain(PROVIDER_CLIENT.secret);
    const info = await callJson(`${service.url}/alpha`, '/GetStudentsInformation.asmx', 'GetStudentInfoById', {
      StudentId: '1',
    });
    expect(JSON.stringify(info.body.d)).toContain('عبدالرحمن');
    expect((await statusAt(`${service.url}/beta`)).lastSync).toBeNull();
    expect((await schoolRowsIn(schoolFolder(dataDirectory, 'org-b'))).students).toHaveLength(0);
  });

  it('forwards per the school’s own routes to its own legacy service, and nowhere else', async () => {
    const atB = await call(`${service.url}/beta`, 'soap11');
    expect(atB.status).toBe(200);
    expect(legacy.requestsFor('HelloWorld')).toHaveLength(1);
    // School A has no legacy service of its own, and takes not the deployment's: it answers itself.
    const atA = await call(`${service.url}/alpha`, 'soap11');
    expect(atA.status).toBe(200);
    expect(atA.text).toContain('Hello World');
    expect(legacy.requestsFor('HelloWorld')).toHaveLength(1);
    expect(deploymentLegacy.requestsFor('HelloWorld')).toHaveLength(0);
    // The deployment's own school keeps its routes.
    await call(service.url, 'soap11');
    expect(deploymentLegacy.requestsFor('HelloWorld')).toHaveLength(1);
  });

  it('takes a school’s changed settings in the running service: the school is served anew with them', async () => {
    const before = legacy.requestsFor('HelloWorld').length;
    // As `schools set org-a LEGACY_URL=… ROUTES=…` writes the list, with the service running.
    writeSchools(dataDirectory, [
      {
        sourcedId: 'org-a',
        path: '/alpha',
        settings: {
          ...provider.settings('1.2'),
          SIS_SYNC_INTERVAL: '15m',
          LEGACY_URL: legacy.url,
          ROUTES: 'HelloWorld=legacy',
        },
      },
      { sourcedId: 'org-b', path: '/beta', settings: { LEGACY_URL: legacy.url, ROUTES: 'HelloWorld=legacy' } },
    ]);
    const forwarded = await eventually(
      async () => {
        await call(`${service.url}/alpha`, 'soap11');
        return legacy.requestsFor('HelloWorld').length;
      },
      (count) => count > before,
    );
    expect(forwarded).toBeGreaterThan(before);
    expect(deploymentLegacy.requestsFor('HelloWorld')).toHaveLength(1);
  });
});
