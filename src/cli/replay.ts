import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadConfig } from '../config/service-config';
import { Comparisons } from '../migration/comparisons';
import { askLegacy, type LegacyRequest, LegacyUnavailable } from '../migration/legacy-client';
import { parseRecordedCall, type RecordedCall } from '../migration/recorded-call';
import { ReportTally } from '../migration/report-tally';
import { reportText } from '../migration/shadow-report';
import { showsNoRecords } from '../operations/registry';
import { UsageError } from './usage-error';

export interface ReplayOptions {
  readonly against: string;
  readonly service?: string;
  readonly json: boolean;
}

/** A line longer than this is refused rather than read into memory. */
const MAX_LINE_CHARACTERS = 16 * 1024 * 1024;

function baseUrl(text: string, option: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${option} must be an http URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${option} must be an http URL`);
  return url.href.replace(/\/+$/, '');
}

/** What the binding of a hand-written line is, when it does not say. */
function bindingOf(call: RecordedCall): string {
  if (call.binding) return call.binding;
  const type = call.headers['content-type'] ?? '';
  if (call.method === 'GET') return 'http-get';
  if (type.includes('json')) return 'json';
  if (type.includes('soap+xml')) return 'soap12';
  return type.includes('xml') ? 'soap11' : 'http-post';
}

/**
 * Sends each recorded call (see recorded-call.ts) to this service (--service, by default the one
 * the settings describe on this machine) and to another (--against), one at a time, compares the
 * two answers as the shadow route does (SHADOW_IGNORE counts; noise is not sampled, as a replayed
 * write would act twice), and prints the same report. A call this service does not answer stops
 * the replay; one the other does not answer is a legacy error.
 */
export async function replayCommand(file: string, options: ReplayOptions): Promise<void> {
  const config = loadConfig();
  const against = baseUrl(options.against, '--against');
  const service = baseUrl(options.service ?? `http://127.0.0.1:${config.port}`, '--service');
  const { legacyTimeoutMs, legacyMaxBytes, ignored, answerBudgets } = config.migration;
  const tally = new ReportTally();
  const comparisons = new Comparisons({ noiseSample: 0, maxPending: 1, ignored, answerBudgets, showsNoRecords }, tally);
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    const call = line.length > MAX_LINE_CHARACTERS ? 'longer than 16 MiB' : parseRecordedCall(line);
    if (typeof call === 'string') throw new UsageError(`${file}:${number}: ${call}`);
    const request: LegacyRequest = {
      method: call.method,
      target: call.path,
      headers: call.headers,
      body: Buffer.from(call.body, 'utf8'),
      callerAddress: '127.0.0.1',
    };
    const ask = (url: string) =>
      askLegacy({ legacyUrl: url, timeoutMs: legacyTimeoutMs, maxBytes: legacyMaxBytes }, request);
    const [here, there] = await Promise.allSettled([ask(service), ask(against)]);
    if (here.status === 'rejected') {
      throw new Error(`${file}:${number}: ${service} did not answer: ${String(here.reason?.message ?? here.reason)}`);
    }
    const subject = { operation: call.operation ?? call.path, binding: bindingOf(call) };
    if (there.status === 'rejected') {
      if (!(there.reason instanceof LegacyUnavailable)) throw there.reason;
      await comparisons.count(subject, 'legacy-error');
    } else {
      await comparisons.judge(subject, here.value, there.value);
    }
  }
  const report = tally.report();
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : reportText(report));
}
