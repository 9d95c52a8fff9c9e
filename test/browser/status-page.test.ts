import type { Browser } from 'playwright-core';
import type { RunningService } from '../../src/service';
import { callJson } from '../support/json-calls';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { CHROMIUM, launchChromium } from '../support/chromium';
import { describeWithTools } from '../support/tools';

describeWithTools([CHROMIUM])('the status page in Chromium', () => {
  let service: RunningService;
  let browser: Browser;

  beforeAll(async () => {
    service = await startTestService({ DEMO_DATA: 'off' });
    for (let call = 0; call < 4; call += 1) {
      await soap11(`${service.url}/GetStudentsNote.asmx`, `<HelloWorld xmlns="${NS}" />`, `"${NS}HelloWorld"`);
    }
    await callJson(service.url, '/GetNoteType.asmx', 'GetStudentsNoteType', {});
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  test('draws the chart and the figures, fetching nothing but the page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const response = await page.goto(`${service.url}/status`);
    expect(response?.status()).toBe(200);
    expect(requested).toEqual([`${service.url}/status`]);

    const chart = page.locator('svg.chart');
    const box = await chart.boundingBox();
    expect(box?.width).toBeGreaterThan(600);
    expect(box?.height).toBeGreaterThan(150);
    // The calls fall in this minute's bar (or two, should a minute have turned meanwhile).
    const bars = chart.locator('rect.bar');
    const titles = await bars.locator('title').allTextContents();
    const callsIn = (operation: string) =>
      titles
        .map((title) => new RegExp(`, ${operation}: (\\d+) calls?$`).exec(title))
        .reduce((sum, match) => sum + Number(match?.[1] ?? 0), 0);
    expect([callsIn('HelloWorld'), callsIn('GetStudentsNoteType')]).toEqual([4, 1]);
    const heights = await bars.evaluateAll((rects) => rects.map((rect) => rect.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeGreaterThan(0);
    await expect(page.locator('.legend li').allTextContents()).resolves.toEqual(['HelloWorld', 'GetStudentsNoteType']);

    const helloRow = page.locator('tr', { has: page.locator('td', { hasText: /^HelloWorld$/ }) });
    const cells = await helloRow.locator('td').allTextContents();
    expect(cells[1]).toBe('4');
    expect(cells[2]).toMatch(/^\d+(\.\d+)? ms$/);
    await expect(page.locator('h2').allTextContents()).resolves.toEqual([
      'Service',
      'Nodes serving from this store',
      'Calls per minute, last hour',
      'Latency, last hour',
      'Refused calls, last hour',
      'Outbox',
      'Last import',
    ]);
    await context.close();
  });
});
