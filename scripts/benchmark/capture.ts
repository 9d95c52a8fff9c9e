import { request } from 'node:http';
import type { Scenario } from './scenarios';

/**
 * Sends one scenario request and keeps what the bare server must repeat: status, Content-Type and
 * body bytes. The same call checks afterwards that the bare server answers byte for byte alike.
 */
export interface CapturedResponse {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

export function sendScenario(port: number, scenario: Scenario): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...scenario.headers };
    if (scenario.method === 'POST') headers['Content-Length'] = Buffer.byteLength(scenario.body);
    const outgoing = request(
      { host: '127.0.0.1', port, method: scenario.method, path: scenario.path, headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            contentType: incoming.headers['content-type'],
            body: Buffer.concat(chunks),
          }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${scenario.name}: no response within 10 s`)));
    outgoing.on('error', reject);
    outgoing.end(scenario.method === 'POST' ? scenario.body : undefined);
  });
}

/** Sends each scenario once and keeps the response; anything but a 200 stops the benchmark. */
export async function captureResponses(port: number, scenarios: readonly Scenario[]): Promise<CapturedResponse[]> {
  const captured: CapturedResponse[] = [];
  for (const scenario of scenarios) {
    const response = await sendScenario(port, scenario);
    if (response.status !== 200)
      throw new Error(`${scenario.name}: the service answered ${response.status}: ${response.body.toString('utf8')}`);
    captured.push(response);
  }
  return captured;
}

/** Checks that a baseline server (`what`) answers every scenario byte for byte as the service did. */
export async function checkAnswersAlike(
  port: number,
  scenarios: readonly Scenario[],
  captured: readonly CapturedResponse[],
  what: string,
): Promise<void> {
  for (const [index, scenario] of scenarios.entries()) {
    const difference = describeDifference(captured[index], await sendScenario(port, scenario));
    if (difference)
      throw new Error(`${scenario.name}: the ${what}'s response differs from the service's: ${difference}`);
  }
}

/** The bare server's responses file: one entry per scenario, keyed as bare-server.js keys them. */
export function responsesFile(scenarios: readonly Scenario[], captured: readonly CapturedResponse[]): string {
  const entries = scenarios.map((scenario, index) => ({
    method: scenario.method,
    path: scenario.path,
    requestContentType: scenario.headers['Content-Type'],
    status: captured[index].status,
    contentType: captured[index].contentType,
    body: captured[index].body.toString('base64'),
  }));
  return JSON.stringify(entries);
}

export function describeDifference(expected: CapturedResponse, actual: CapturedResponse): string | undefined {
  if (expected.status !== actual.status) return `status ${actual.status}, expected ${expected.status}`;
  if (expected.contentType !== actual.contentType)
    return `Content-Type ${actual.contentType}, expected ${expected.contentType}`;
  if (!expected.body.equals(actual.body))
    return `body differs (${actual.body.length} bytes, expected ${expected.body.length})`;
  return undefined;
}
