/**
 * What the shadow route costs the caller: a legacy service that answers after a fixed delay (a
 * loopback server in this process), called directly, then through the service with the route
 * `legacy` and `shadow`. Calls are made one at a time, so that each one's time is its own; the
 * service runs in this process too, its comparisons after each answer.
 *
 *   npx tsx scripts/benchmark-shadow.ts [calls per mode, 400] [legacy delay ms, 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/service-config';
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

async function timeCalls(url: string): Promise<number[]> {
  const times: number[] = [];
  for (let call = 0; call < CALLS + 20; call++) {
    const started = performance.now();
    const response = await fetch(`${url}/GetStudentsNote.asmx`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
      body: REQUEST,
    });
    await response.text();
    // The first 20 warm the connections and the code up.
    if (call >= 20) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
  const legacy = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      setTimeout(() => response.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' }).end(ANSWER), DELAY_MS),
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
    await service.close();
    rmSync(folder, { recursive: true, force: true });
  }
  legacy.close();
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
