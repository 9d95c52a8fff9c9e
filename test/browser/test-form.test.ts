import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { CHROMIUM, launchChromium } from '../support/chromium';
import { describeWithTools } from '../support/tools';

/**
 * Presses Invoke. The form targets _blank, so the answer opens in a new tab; its response is
 * awaited on the context, which sees the popup's first navigation from its start.
 */
async function invoke(page: Page): Promise<{ answer: Page; response: Response }> {
  const [answer, response] = await Promise.all([
    page.waitForEvent('popup'),
    page.context().waitForEvent('response', (candidate) => candidate.request().method() === 'POST'),
    page.getByRole('button', { name: 'Invoke' }).click(),
  ]);
  await answer.waitForLoadState();
  return { answer, response };
}

/** What the tab shows: innerText leaves out the hidden source copy in Chromium's XML viewer. */
/* biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator.innerText is wanted here, for the
   reason above. */
const shown = (answer: Page) => answer.locator('body').innerText();

describeWithTools([CHROMIUM])('the test form in Chromium', () => {
  let service: RunningService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // A proxy on this machine that forwards remote browsers' requests: see the last test.
    service = await startTestService({ LOCAL_NETWORKS: '127.0.0.1/32', TRUSTED_PROXIES: '127.0.0.1/32' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await context.close();
  });

  test('HelloWorld: from the service page through the operation page to the answer', async () => {
    await page.goto(`${service.url}/GetStudentsNote.asmx`);
    await page.getByRole('link', { name: 'HelloWorld' }).click();
    await page.waitForURL(`${service.url}/GetStudentsNote.asmx?op=HelloWorld`);
    const { answer, response } = await invoke(page);
    expect([answer.url(), response.status()]).toEqual([`${service.url}/GetStudentsNote.asmx/HelloWorld`, 200]);
    expect(await shown(answer)).toContain('Hello World');
  });

  test('AuthCode: the filled fields are posted and the void answer is an empty 200', async () => {
    await page.goto(`${service.url}/AuthCodeSending.asmx`);
    await page.getByRole('link', { name: 'AuthCode' }).click();
    await page.locator('input[name="code"]').fill('1234');
    await page.locator('input[name="phone"]').fill('0500000000');
    const { response } = await invoke(page);
    expect(response.request().postData()).toBe('code=1234&phone=0500000000');
    expect([response.status(), await response.text()]).toEqual([200, '']);
  });

  test('GenerateReport: a studentId that is not an int shows the ASMX error', async () => {
    await page.goto(`${service.url}/GenerateStudentReport.asmx?op=GenerateReport`);
    await page.locator('input[name="studentId"]').pressSequentially('abc');
    const { answer, response } = await invoke(page);
    expect(response.status()).toBe(500);
    expect(await shown(answer)).toContain('Cannot convert abc to System.Int32.');
  });

  test('Arabic typed into a field is posted as percent-encoded UTF-8 and reaches the handler intact', async () => {
    const text = 'ملاحظة جديدة';
    // The handler is the service's own end of the wire: what it is handed is what the service read.
    const handle = jest.spyOn(service.operations.PushNotificationToGateway, 'handle');
    await page.goto(`${service.url}/PushNotificationMobile.asmx?op=PushNotificationToGateway`);
    await page.locator('input[name="notes"]').fill(text);
    const { response } = await invoke(page);
    // The bytes are spelled out rather than derived, so a wrong charset cannot agree with itself.
    expect(response.request().postData()).toBe(
      'applicationID=&senderId=&deviceId=' +
        '&notes=%D9%85%D9%84%D8%A7%D8%AD%D8%B8%D8%A9+%D8%AC%D8%AF%D9%8A%D8%AF%D8%A9&notes_type=',
    );
    expect(response.status()).toBe(200);
    expect(handle.mock.calls.map(([parameters]) => parameters.notes)).toEqual([text]);
  });

  test("a remote browser (behind a trusted proxy) sees ASMX's sentence in place of the form", async () => {
    const remote = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.7' } });
    try {
      const remotePage = await remote.newPage();
      await remotePage.goto(`${service.url}/GetStudentsNote.asmx?op=HelloWorld`);
      expect(await remotePage.getByRole('button', { name: 'Invoke' }).count()).toBe(0);
      expect(await shown(remotePage)).toContain('The test form is only available for requests from the local machine.');
    } finally {
      await remote.close();
    }
    await page.goto(`${service.url}/GetStudentsNote.asmx?op=HelloWorld`);
    expect(await page.getByRole('button', { name: 'Invoke' }).count()).toBe(1);
  });
});
