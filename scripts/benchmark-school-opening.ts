/**
 * Where a district school's opening goes, measured in the process rather than over the network:
 * one school of the demo school's size (500 students) on SQLite, opened and closed again and again
 * as the district opens it at its first request after idle, each part timed on its own (its store,
 * its School unit, the tracking of its requests over the district's routing, its close); then the
 * service itself, started in this process with SCHOOLS_IDLE_CLOSE_SECONDS=1, called at the school
 * once it has closed for idleness, and called again at once. The deployment's own audit trail is
 * held open meanwhile, as in a district, so that the trails' writer thread is not started and
 * ended with each school. A benchmark, not a test: it checks nothing.
 *
 *   npm run bench:opening                    15 rounds
 *   npm run bench:opening -- --rounds 50
 *   node --cpu-prof --import tsx scripts/benchmark-school-opening.ts   with a CPU profile
 */
import { parseArgs } from 'node:util';
import { AuditTrail } from '../src/audit/audit-trail';
import { loadCatalog } from '../src/contract/catalog';
import { WSDL_DIRECTORY } from '../src/contract/wsdl-directory';
import { loadConfig } from '../src/config/service-config';
import { configureLog } from '../src/lib/log';
import { schoolConfig } from '../src/district/school-config';
import { bindOperations } from '../src/operations/registry';
import { openSchool } from '../src/school/school';
import { requestRouting, trackSchoolRequests } from '../src/server/http-server';
import { startService } from '../src/service';
import { openStore } from '../src/store/open-store';
import { ProcessTelemetry } from '../src/telemetry/process-telemetry';
import { makeTestDistrict } from '../test/support/district';
import { post } from '../test/support/soap';
import { TEST_OUTBOX_KEY } from '../test/support/test-key';

const SCHOOL = { sourcedId: 'org-1', path: '/s1' };
const LOOKUP =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
  '<soap:Body><GetStudentInfoById xmlns="http://tempuri.org/"><StudentId>5</StudentId></GetStudentInfoById>' +
  '</soap:Body></soap:Envelope>';
const SOAP_HEADERS = {
  'Content-Type': 'text/xml; charset=utf-8',
  SOAPAction: '"http://tempuri.org/GetStudentInfoById"',
};

/** Each part's times, in ms, in the order the parts were first timed. */
const parts = new Map<string, number[]>();

async function timed<T>(part: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  parts.set(part, [...(parts.get(part) ?? []), performance.now() - started]);
  return result;
}

function summary(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `median ${median.toFixed(2)} ms, max ${(sorted.at(-1) as number).toFixed(2)} ms`;
}

async function timedLookup(url: string): Promise<number> {
  const started = performance.now();
  const answer = await post(url, SOAP_HEADERS, LOOKUP);
  if (answer.status !== 200) throw new Error(`the school answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return performance.now() - started;
}

/** The school's parts, opened and closed `rounds` times as the district opens and closes them. */
async function measureParts(environment: Record<string, string>, rounds: number): Promise<void> {
  const deployment = loadConfig(environment);
  const config = schoolConfig(deployment, SCHOOL, environment);
  const catalog = await loadCatalog(WSDL_DIRECTORY);
  const shared = {
    config,
    operations: bindOperations(catalog),
    telemetry: new ProcessTelemetry(),
    endpointPathOf: () => '/NotificationNotes.asmx',
    clock: () => new Date(),
    node: () => 'benchmark',
  };
  const routing = requestRouting(deployment, catalog);
  const deploymentTrail = new AuditTrail(deployment, { flushMs: 1_000, retentionDays: 365 });
  try {
    for (let round = 0; round < rounds; round += 1) {
      const store = await timed('its store (openStore)', () => openStore(config));
      const school = await timed('its School unit (openSchool)', () => openSchool(store, shared));
      await timed('its requests over the routing (trackSchoolRequests)', () =>
        trackSchoolRequests({ ...shared, catalog, ...school, unreadyReason: async () => undefined }, routing),
      );
      await timed('its close', () => school.close());
    }
  } finally {
    await deploymentTrail.close();
  }
}

/** The service in this process: the school's first call once it has closed for idleness, and the call after it. */
async function measureFirstCalls(environment: Record<string, string>, rounds: number): Promise<void> {
  const service = await startService(loadConfig({ ...environment, SCHOOLS_IDLE_CLOSE_SECONDS: '1' }));
  try {
    const url = `${service.url}${SCHOOL.path}/GetStudentsInformation.asmx`;
    await timedLookup(url);
    for (let round = 0; round < rounds; round += 1) {
      while (service.schoolsOpen() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      parts.set('first call after idle', [...(parts.get('first call after idle') ?? []), await timedLookup(url)]);
      parts.set('the call after it', [...(parts.get('the call after it') ?? []), await timedLookup(url)]);
    }
  } finally {
    await service.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
  const rounds = Number(values.rounds);
  if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 1_000)) throw new Error('--rounds is from 1 to 1000');
  const district = await makeTestDistrict({}, [{ entry: SCHOOL, students: 500, seed: 1 }]);
  try {
    const environment = {
      DATA_DIR: district.settings.DATA_DIR,
      OUTBOX_KEY: TEST_OUTBOX_KEY,
      CONTRACT: 'typed',
      LOG_LEVEL: 'error',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    configureLog(loadConfig(environment));
    await measureParts(environment, rounds);
    await measureFirstCalls(environment, rounds);
    console.log(`A school of 500 students on SQLite, ${rounds} rounds:`);
    for (const [part, times] of parts) console.log(`  ${part.padEnd(54)} ${summary(times)}`);
  } finally {
    district.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
