import type { RunningService } from '../../src/service';
import { addTestCallers, REMOTE_TEST_SETTINGS, type TestCaller } from './callers';
import { basic, type RemoteResponse, remoteFetch } from './remote-client';
import { type BundleRows, smallSchool, writeBundle } from './roster-bundle';
import { importBundle, problemsOf } from './roster-import';
import { startTestService } from './service';
import { openTestStore } from './stores';

/**
 * An LMS speaking to the service's OneRoster provider from another address: token requests as
 * clients send them, and reads and writes with a bearer token.
 */
export const SCOPE = (name: string) => `https://purl.imsglobal.org/spec/or/v1p2/scope/${name}`;
export const ALL_SCOPES = [
  'roster-core.readonly',
  'roster.readonly',
  'roster-demographics.readonly',
  'gradebook.readonly',
  'gradebook.createput',
  'gradebook.delete',
].map(SCOPE);

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** POST /oauth/token with a form (and headers, e.g. Basic credentials). */
export function tokenRequest(
  service: RunningService,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<RemoteResponse> {
  return remoteFetch(`${service.url}/oauth/token`, {
    method: 'POST',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/** A token for the caller (Basic, plain), for `scopes` or all the caller may have; throws when refused. */
export async function tokenFor(
  service: RunningService,
  name: string,
  secret: string,
  scopes?: readonly string[],
): Promise<string> {
  const form: Record<string, string> = { grant_type: 'client_credentials' };
  if (scopes) form.scope = scopes.join(' ');
  const answer = await tokenRequest(service, form, { Authorization: basic(name, secret) });
  if (answer.status !== 200) throw new Error(`token refused: ${answer.status} ${answer.text}`);
  return (JSON.parse(answer.text) as { access_token: string }).access_token;
}

/** A request with a bearer token to a path of the service (e.g. /ims/oneroster/rostering/v1p2/users). */
export function withToken(
  service: RunningService,
  token: string,
  path: string,
  options: { method?: string; body?: unknown } = {},
): Promise<RemoteResponse> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return remoteFetch(`${service.url}${path}`, { method: options.method ?? 'GET', headers, body });
}

/** A service seen from other addresses on the store of `storeSettings` (engine), with these callers read. */
export async function startProviderService(
  storeSettings: Record<string, string>,
  callers: readonly TestCaller[],
  settings: Record<string, string> = {},
): Promise<{ service: RunningService; secrets: Record<string, string> }> {
  const service = await startTestService({ ...REMOTE_TEST_SETTINGS, DEMO_DATA: 'off', ...storeSettings, ...settings });
  const secrets = await addTestCallers(service.store, callers);
  await service.readCallers();
  return { service, secrets };
}

/**
 * A provider service (`startProviderService`) with one caller, who took a token as an LMS does:
 * for `scopes`, or all the caller may have.
 */
export async function startProviderWithToken(
  storeSettings: Record<string, string>,
  caller: TestCaller,
  scopes?: readonly string[],
): Promise<{ service: RunningService; token: string }> {
  const { service, secrets } = await startProviderService(storeSettings, [{ secret: true, ...caller }]);
  try {
    return { service, token: await tokenFor(service, caller.name, secrets[caller.name], scopes) };
  } catch (error) {
    await service.close();
    throw error;
  }
}

/**
 * Imports the small test school (roster-bundle.ts), or `school` (the small school as a test
 * changed it), into the store of `storeSettings`, as `import` does; throws on any problem.
 */
export async function importSmallSchool(
  storeSettings: Record<string, string>,
  school: BundleRows = smallSchool(),
): Promise<void> {
  const store = await openTestStore(storeSettings);
  try {
    const outcome = await importBundle(store, writeBundle(school));
    if (problemsOf(outcome).length > 0) throw new Error(JSON.stringify(problemsOf(outcome)));
  } finally {
    await store.close();
  }
}

export const ROSTERING = '/ims/oneroster/rostering/v1p2';

/** The sourcedIds of a page's records. */
export function idsOf(text: string, key: string): string[] {
  return (JSON.parse(text)[key] as Array<{ sourcedId: string }>).map((record) => record.sourcedId);
}

/**
 * A 1.2 line item's PUT body in the small school (math-7a, cat-quiz, gp1), out of 20: the fields
 * an LMS sends, each replaceable by `overrides`.
 */
export function lineItemBody(overrides: Record<string, unknown> = {}) {
  return {
    lineItem: {
      status: 'active',
      title: 'Fractions homework',
      description: 'Chapter 4, exercises 1-12',
      assignDate: '2026-10-01T08:00:00Z',
      dueDate: '2026-10-08T23:59:00Z',
      class: { sourcedId: 'math-7a', type: 'class' },
      category: { sourcedId: 'cat-quiz', type: 'category' },
      gradingPeriod: { sourcedId: 'gp1', type: 'academicSession' },
      resultValueMin: 0,
      resultValueMax: 20,
      ...overrides,
    },
  };
}
