/**
 * What the shadow route costs the caller: a legacy service that answers after a fixed delay (a
 * loopback server in this process), called directly, then through the service with the route
 * `legacy` and `shadow`. Calls are made one at a time, so that each one's time is its own; the
 * service runs in this process too, its comparisons after each answer.
 *
 *   npx tsx scripts/benchmark-shadow.ts [calls per mode, 400] [legacy delay ms, 20] [hostile]
 *
 * With `hostile`, it then prints what one comparison costs with a plain legacy answer, one nested
 * 20,000 deep and one with 5,000 attributes, and the median of local calls (not routed) made one
 * at a time while another client keeps calling the shadow route, the legacy answer plain or hostile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAnswerBudgets } from '../src/config/answer-budgets';
import { loadConfig } from '../src/config/service-config';
import { answerDifferences } from '../src/migration/answer';
import { startService } from '../src/service';

const CALLS = Number(process.argv[2] ?? 400);
const DELAY_MS = Number(process.argv[3] ?? 20);
const NS = 'http://tempuri.org/';
const ANSWER =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>' +
  `<HelloWorldResponse xmlns="${NS}"><HelloWorldResult>Hello World</HelloWorldResult></HelloWorldResponse>` +
  '</soap:Body></soap:Envelope>';
const REQUEST =
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  `<HelloWorld xmlns="${NS}" /></soap:Body></soap:Envelope>`;

const HOSTILE = process.argv[4] === 'hostile';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const envelope = (content: string) =>
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body>${content}</soap:Body></soap:Envelope>`;
const HOSTILE_ANSWERS: ReadonlyArray<[string, string]> = [
  ['plain', ANSWER],
  ['nested 20,000 deep', envelope(`${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}`)],
  ['5,000 attributes', envelope(`<R ${Array.from({ length: 5_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`)],
];
/** What the legacy stand-in answers: the plain answer, or a hostile one. */
let legacyAnswer = ANSWER;

/** A call of HelloWorld (routed as the run says) or of GetStudentsNoteType (always local); its time in ms. */
async function timedCall(url: string, local = false): Promise<number> {
  const started = performance.now();
  const response = local
    ? await fetch(`${url}/GetNoteType.asmx/GetStudentsNoteType`)
    : await fetch(`${url}/GetStudentsNote.asmx`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
        body: REQUEST,
      });
  await response.text();
  return performance.now() - started;
}

async function timeCalls(url: string, local = false): Promise<number[]> {
  const times: number[] = [];
  for (let call = 0; call < CALLS + 20; call++) {
    const elapsed = await timedCall(url, local);
    // The first 20 warm the connections and the code up.
    if (call >= 20) times.push(elapsed);
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The median time of one comparison of a plain local answer with each legacy answer. */
function comparisonCosts(): void {
  const budgets = readAnswerBudgets({});
  const local = { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: Buffer.from(ANSWER) };
  process.stdout.write('One comparison (median of 50):\n');
  for (const [name, text] of HOSTILE_ANSWERS) {
    const legacy = { ...local, body: Buffer.from(text) };
    const times: number[] = [];
    for (let run = 0; run < 50; run++) {
      const started = performance.now();
      answerDifferences(local, legacy, budgets);
      times.push(performance.now() - started);
    }
    process.stdout.write(
      `  ${name.padEnd(20)} ${at(
        times.sort((a, b) => a - b),
        0.5,
      ).toFixed(3)} ms\n`,
    );
  }
}

/** Local calls one at a time while another client calls the shadow route without pause; their median. */
async function localBesideShadow(url: string): Promise<void> {
  process.stdout.write(`Local calls (${CALLS}, one at a time) while the shadow route is called meanwhile:\n`);
  for (const [name, text] of HOSTILE_ANSWERS) {
    legacyAnswer = text;
    let calling = true;
    const shadowCalls = (async () => {
      while (calling) await timedCall(url);
    })();
    const times = await timeCalls(url, true);
    calling = false;
    await shadowCalls;
    process.stdout.write(
      `  legacy answer ${name.padEnd(20)} median ${at(times, 0.5).toFixed(2)} ms` +
        `  p90 ${at(times, 0.9).toFixed(2)} ms\n`,
    );
  }
  legacyAnswer = ANSWER;
}

async function main(): Promise<void> {
  const legacy = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      setTimeout(
        () => response.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' }).end(legacyAnswer),
        DELAY_MS,
      ),
    );
  });
  await new Promise<void>((resolve) => legacy.listen(0, '127.0.0.1', resolve));
  const legacyUrl = `http://127.0.0.1:${(legacy.address() as AddressInfo).port}`;
  const rows: Array<[string, number[]]> = [['legacy, called directly', await timeCalls(legacyUrl)]];
  for (const route of ['legacy', 'shadow']) {
    const folder = mkdtempSync(join(tmpdir(), 'bench-shadow-'));
    const service = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DEMO_DATA: 'off',
        DATA_DIR: folder,
        LEGACY_URL: legacyUrl,
        ROUTES: `HelloWorld=${route}`,
      }),
    );
    rows.push([`through the service, route ${route}`, await timeCalls(service.url)]);
    if (HOSTILE && route === 'shadow') await localBesideShadow(service.url);
    await service.close();
    rmSync(folder, { recursive: true, force: true });
  }
  legacy.close();
  if (HOSTILE) comparisonCosts();
  const direct = at(rows[0][1], 0.5);
  process.stdout.write(`${CALLS} calls a mode, one at a time; the legacy service answers after ${DELAY_MS} ms\n`);
  for (const [name, times] of rows) {
    const median = at(times, 0.5);
    process.stdout.write(
      `${name.padEnd(36)} median ${median.toFixed(2)} ms  p90 ${at(times, 0.9).toFixed(2)} ms` +
        `  (median +${(median - direct).toFixed(2)} ms)\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
