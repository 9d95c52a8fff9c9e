import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import { CHROMIUM, launchChromium } from '../support/chromium';
import { cliArguments, ROOT } from '../support/cli';
import { eventually } from '../support/eventually';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { call } from '../support/legacy-calls';
import { startTestService } from '../support/service';
import { describeWithTools } from '../support/tools';

const run = promisify(execFile);

/**
 * The report of the comparisons, where operators read it: the shadow-report command, /status.json,
 * /metrics and the status page's Migration section in Chromium. HelloWorld is in shadow and the
 * legacy stand-in answers it otherwise: two calls on SOAP 1.1, one on JSON.
 */
describe('The comparison report', () => {
  let legacy: LegacyStandIn;
  let service: RunningService;
  let dataDirectory: string;
  const env = () => ({ ...process.env, DATA_DIR: dataDirectory, LOG_LEVEL: 'silent' });
  const cli = async (...args: string[]) =>
    (await run(process.execPath, cliArguments(...args), { cwd: ROOT, env: env() })).stdout;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-migration-'));
    legacy = await startLegacyStandIn();
    legacy.behaviour.differ = { from: 'Hello World', to: 'Hello Legacy' };
    service = await startTestService({
      DEMO_DATA: 'off',
      DATA_DIR: dataDirectory,
      LEGACY_URL: legacy.url,
      SHADOW_FLUSH_MS: '20',
      ROUTES: 'default=legacy,HelloWorld=shadow,GetStudentsNoteType=canary',
      SHADOW_NOISE_SAMPLE: '0',
    });
    await call(service.url, 'soap11');
    await call(service.url, 'soap11');
    await call(service.url, 'json');
    await eventually(
      () => shadowReport(service.store, {}),
      (report) => report.operations.reduce((sum, row) => sum + row.compared, 0) === 3,
    );
  });
  afterAll(async () => {
    await service?.close();
    await legacy?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  test('/metrics counts comparisons by operation, binding and outcome', async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toContain(
      'school_shadow_comparisons_total{operation="HelloWorld",binding="soap11",outcome="different"} 2',
    );
    expect(text).toContain(
      'school_shadow_comparisons_total{operation="HelloWorld",binding="json",outcome="different"} 1',
    );
  });

  test('/status.json gives every operation its route and comparisons', async () => {
    const status = (await (await fetch(`${service.url}/status.json`)).json()) as {
      migration: { legacyUrl: string; operations: Array<{ operation: string; route: string; compared: number }> };
    };
    expect(status.migration.legacyUrl).toBe(legacy.url);
    expect(status.migration.operations).toHaveLength(18);
    expect(status.migration.operations.find((row) => row.operation === 'HelloWorld')).toMatchObject({
      route: 'shadow',
      compared: 3,
      different: 3,
    });
    expect(status.migration.operations.find((row) => row.operation === 'GetStudentsNoteType')?.route).toBe('canary');
  });

  test('school-service shadow-report prints the counts and each differing path with an example', async () => {
    const text = await cli('shadow-report');
    expect(text).toMatch(/HelloWorld\s+soap11\s+2\s+0\s+2\s+0\s+0\s+0\s+0/);
    expect(text).toContain('HelloWorld soap11 /Envelope/Body/HelloWorldResponse/HelloWorldResult: 2');
    expect(text).toContain('here:   "Hello World"');
    expect(text).toContain('legacy: "Hello Legacy"');
    const json = JSON.parse(await cli('shadow-report', '--json', '--operation', 'HelloWorld')) as {
      operations: Array<{ binding: string; different: number }>;
    };
    expect(json.operations.map((row) => [row.binding, row.different]).sort()).toEqual([
      ['json', 1],
      ['soap11', 2],
    ]);
    expect(await cli('shadow-report', '--since', '2999-01-01')).toContain('none yet');
    await expect(cli('shadow-report', '--since', 'yesterday')).rejects.toMatchObject({ code: 2 });
  });

  test('school-service routes prints the table in force', async () => {
    const text = await run(process.execPath, cliArguments('routes'), {
      cwd: ROOT,
      env: { ...env(), LEGACY_URL: legacy.url, ROUTES: 'default=shadow,AuthCode=legacy' },
    });
    expect(text.stdout).toMatch(/AuthCode\s+legacy/);
    expect(text.stdout).toMatch(/HelloWorld\s+shadow/);
    await expect(
      run(process.execPath, cliArguments('routes'), { cwd: ROOT, env: { ...env(), ROUTES: 'AuthCode=canary' } }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('needs LEGACY_URL') });
  });

  describeWithTools([CHROMIUM])('in Chromium', () => {
    test('the status page has a Migration section with a bar per operation', async () => {
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext()).newPage();
        await page.goto(`${service.url}/status`);
        await expect(page.locator('h2').last().textContent()).resolves.toBe('Migration');
        const rows = page.locator('#migration tbody tr');
        expect(await rows.count()).toBe(18);
        const hello = page.locator('#migration tr[data-operation="HelloWorld"]');
        const cells = await hello.locator('td').allTextContents();
        expect(cells[1]).toBe('shadow');
        expect(cells[3]).toBe('3');
        const different = await hello.locator('rect.different').boundingBox();
        expect(different?.width).toBeGreaterThan(200);
        const identical = await hello.locator('rect.identical').evaluate((rect) => rect.getBoundingClientRect().width);
        expect(identical).toBe(0);
        await expect(page.locator('#migration tr[data-operation="AuthCode"] td').nth(2).textContent()).resolves.toBe(
          'no comparisons',
        );
      } finally {
        await browser.close();
      }
    });
  });
});
