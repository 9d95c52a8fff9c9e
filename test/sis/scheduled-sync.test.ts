import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatusReport } from '../../src/pages/status-report';
import type { RunningService } from '../../src/service';
import { callJson } from '../support/json-calls';
import { OneRosterProvider, PROVIDER_CLIENT, schoolOf, sisSchool } from '../support/oneroster-provider';
import { startTestService } from '../support/service';

/**
 * SIS_SYNC_INTERVAL: the service pulls the school on its own, and tells the operator how it went
 * on /status and /metrics, with the client secret on neither.
 */

async function statusOf(service: RunningService): Promise<StatusReport> {
  return (await (await fetch(`${service.url}/status.json`)).json()) as StatusReport;
}

/** Polls /status.json until the first sync is recorded: the signal, not a guessed delay. */
async function firstSync(service: RunningService): Promise<StatusReport> {
  for (let tries = 0; tries < 600; tries += 1) {
    const report = await statusOf(service);
    if (report.lastSync?.last) return report;
    await sleep(100);
  }
  throw new Error('no sync was recorded within a minute');
}

describe('the scheduled sync', () => {
  let provider: OneRosterProvider;
  let service: RunningService;
  let folder: string;
  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    folder = mkdtempSync(join(tmpdir(), 'scheduled-sync-'));
    service = await startTestService(
      { ...provider.settings('1.2'), DATA_DIR: folder, DEMO_DATA: 'off', SIS_SYNC_INTERVAL: '15m' },
      { firstSyncAfterMs: 0 },
    );
  });
  afterAll(async () => {
    await service.close();
    await provider.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('runs soon after the start, and /status shows it with the next run', async () => {
    const report = await firstSync(service);
    expect(report.lastSync?.last).toMatchObject({ outcome: 'done', mode: 'bulk', deleted: 0, problems: 0 });
    expect(report.lastSync?.last?.added).toBeGreaterThan(20);
    // Per kind, as the import counted them: the first sync of the small school adds its 4 marks.
    expect(report.lastSync?.last?.changes.marks).toEqual({ added: 4, changed: 0, deleted: 0 });
    expect(report.lastSync?.last?.duplicates).toBe(0);
    const next = Date.parse(report.lastSync?.nextRunAt ?? '');
    expect(next - Date.parse(report.lastSync?.last?.startedAt ?? '')).toBeGreaterThan(14 * 60_000);
    const info = await callJson(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: '1' });
    expect(JSON.stringify(info.body.d)).toContain('عبدالرحمن');
    const page = await (await fetch(`${service.url}/status`)).text();
    expect(page).toContain('Last SIS sync');
    expect(JSON.stringify(report)).not.toContain(PROVIDER_CLIENT.secret);
  });

  test('/metrics has its duration, outcome and records, and no secret', async () => {
    await firstSync(service);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toMatch(/school_sis_sync_last_outcome\{outcome="done"\} 1/);
    expect(text).toMatch(/school_sis_sync_records\{kind="added"\} [1-9]/);
    // The import's warnings, records sent twice apart, beside its problems; this school has none.
    expect(text).toMatch(/school_sis_sync_records\{kind="warnings"\} 0\n/);
    expect(text).toMatch(/school_sis_sync_records\{kind="duplicates"\} 0\n/);
    expect(text).toMatch(/school_sis_sync_changes\{table="marks",kind="added"\} 4\n/);
    expect(text).toMatch(/school_sis_sync_duration_seconds [0-9.]+/);
    expect(text).not.toContain(PROVIDER_CLIENT.secret);
  });
});

describe('the scheduled sync on two nodes sharing one store', () => {
  test('runs on one of them: the other, trying while the first syncs, finds the lease taken', async () => {
    const provider = new OneRosterProvider(schoolOf(sisSchool(), '1.1'));
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first node's sync is held at its first page until the second node has tried.
    provider.faults.push({ collection: 'orgs', held, times: 1 });
    await provider.start();
    const folder = mkdtempSync(join(tmpdir(), 'scheduled-sync-nodes-'));
    const settings = { ...provider.settings('1.1'), DATA_DIR: folder, DEMO_DATA: 'off', SIS_SYNC_INTERVAL: '15m' };
    const nodes: RunningService[] = [];
    try {
      nodes.push(await startTestService(settings, { firstSyncAfterMs: 0 }));
      await until(() => provider.requests.length > 0);
      nodes.push(await startTestService(settings, { firstSyncAfterMs: 0 }));
      const second = await until(async () => (await statusOf(nodes[1])).lastSync?.lastAttemptHere);
      expect(second.outcome).toBe('busy');
      release();
      const first = await firstSync(nodes[0]);
      expect(first.lastSync?.lastAttemptHere?.outcome).toBe('done');
      // Both nodes show the one sync, from the store.
      expect((await statusOf(nodes[1])).lastSync?.last?.startedAt).toBe(first.lastSync?.last?.startedAt);
      expect(provider.requests.filter((request) => request.includes('/orgs?'))).toHaveLength(1);
    } finally {
      release();
      for (const node of nodes) await node.close();
      await provider.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** Polls until `value` gives something: the signal a test waits on, within a minute. */
async function until<T>(value: () => T | null | undefined | Promise<T | null | undefined>): Promise<T> {
  for (let tries = 0; tries < 600; tries += 1) {
    const found = await value();
    if (found) return found;
    await sleep(100);
  }
  throw new Error('not within a minute');
}
