import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addCaller, type NewCaller } from '../../src/access/caller-admin';
import { CallerRegistry } from '../../src/access/caller-registry';
import { type AccessSettings, readAccessSettings } from '../../src/config/access-settings';
import { flushLog, setLogLevel } from '../../src/lib/log';
import { keyFor, payloadSealer } from '../../src/lib/payload-sealer';
import type { RunningService, StartOptions } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import type { Session } from '../../src/store/session';
import { envelope11, envelope12, NS } from './soap';
import { basic, type RemoteResponse, remoteFetch } from './remote-client';
import { startTestService } from './service';
import { TEST_OUTBOX_KEY } from './test-key';
import { openTestSchool, openTestStore } from './stores';

/**
 * Callers for the tests of who may call: a service seen from another address, callers added as
 * the callers command adds them, and requests on every binding with each kind of credential.
 */

/** The service key the tests' services run with, so that the tests can seal digest secrets as the command does. */
export { TEST_OUTBOX_KEY };

/**
 * A service whose only local network is 127.0.0.1, which sees changed callers within 200 ms (a test
 * that changes them need not wait: `service.readCallers()` has them read at once).
 */
export const REMOTE_TEST_SETTINGS: Readonly<Record<string, string>> = {
  LOCAL_NETWORKS: '127.0.0.1/32',
  ACCESS_REFRESH_MS: '200',
  AUDIT_FLUSH_MS: '100',
  OUTBOX_KEY: TEST_OUTBOX_KEY,
};

/** The sealer of digest secrets of a service running with TEST_OUTBOX_KEY, as the callers command makes it. */
export function testDigestSealer() {
  return payloadSealer(keyFor(Buffer.from(TEST_OUTBOX_KEY, 'hex'), 'caller-digest-secrets'));
}

/** Adds a caller as `school-service callers add` does; returns its secret when it has one. */
export async function addTestCaller(
  store: Session,
  caller: Partial<NewCaller> & { name: string },
): Promise<string | undefined> {
  const sealer = testDigestSealer();
  const { secret } = await addCaller(
    store,
    {
      networks: [],
      secret: false,
      wsDigest: false,
      operations: ['all'],
      scope: 'school',
      expires: undefined,
      ...caller,
    },
    sealer,
    new Date(),
  );
  return secret;
}

/** A caller as a test describes it: what the callers command is given. */
export type TestCaller = Partial<NewCaller> & { name: string };

/** Adds these callers as the callers command does; their secrets by name (one recognised by network alone has none). */
export async function addTestCallers(store: Session, callers: readonly TestCaller[]): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {};
  for (const caller of callers) {
    const secret = await addTestCaller(store, caller);
    if (secret !== undefined) secrets[caller.name] = secret;
  }
  return secrets;
}

/** Loads the test school into the store `settings` name, with these callers; their secrets by name. */
export async function loadTestSchoolWithCallers(
  settings: Record<string, string>,
  callers: readonly TestCaller[],
): Promise<Record<string, string>> {
  const store = await openTestSchool(settings);
  try {
    return await addTestCallers(store, callers);
  } finally {
    await store.close();
  }
}

export type Binding = 'soap11' | 'soap12' | 'get' | 'post' | 'json';
export const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'get', 'post', 'json'];

export interface CallOptions {
  readonly headers?: Record<string, string>;
  /** A WS-Security header block for the SOAP envelope. */
  readonly soapHeader?: string;
  readonly from?: string;
}

/** Calls an operation through one binding from another loopback address. */
export function remoteCall(
  baseUrl: string,
  path: string,
  operation: string,
  parameters: Record<string, string>,
  binding: Binding,
  options: CallOptions = {},
): Promise<RemoteResponse> {
  const fields = Object.entries(parameters);
  const form = new URLSearchParams(fields).toString();
  const body =
    `<${operation} xmlns="${NS}">` +
    `${fields.map(([name, value]) => `<${name}>${value}</${name}>`).join('')}</${operation}>`;
  const header = options.soapHeader === undefined ? '' : options.soapHeader;
  const headers = options.headers ?? {};
  const from = options.from;
  switch (binding) {
    case 'soap11':
      return remoteFetch(baseUrl + path, {
        method: 'POST',
        from,
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}${operation}"`, ...headers },
        body: envelope11(body).replace('<soap:Body>', `${header}<soap:Body>`),
      });
    case 'soap12':
      return remoteFetch(baseUrl + path, {
        method: 'POST',
        from,
        headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action="${NS}${operation}"`, ...headers },
        body: envelope12(body).replace('<soap12:Body>', `${header.replaceAll('soap:', 'soap12:')}<soap12:Body>`),
      });
    case 'get':
      return remoteFetch(`${baseUrl}${path}/${operation}?${form}`, { from, headers });
    case 'post':
      return remoteFetch(`${baseUrl}${path}/${operation}`, {
        method: 'POST',
        from,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: form,
      });
    case 'json':
      return remoteFetch(`${baseUrl}${path}/${operation}`, {
        method: 'POST',
        from,
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
        body: JSON.stringify(parameters),
      });
  }
}

export { basic };

/** A WS-Security client's call with a PasswordDigest UsernameToken: a student asked for over SOAP 1.1. */
export function callWithDigest(url: string, name: string, secret: string, studentId: string): Promise<RemoteResponse> {
  return remoteCall(url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: studentId }, 'soap11', {
    soapHeader: usernameTokenHeader(name, secret, { digest: true }),
  });
}

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const TOKEN_PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';

/**
 * A SOAP Header with a WS-Security UsernameToken, its password in clear or as a digest, as WS-Security clients
 * write it.
 */
export function usernameTokenHeader(
  name: string,
  secret: string,
  options: { digest?: boolean; nonce?: Buffer; created?: Date } = {},
): string {
  const nonce = options.nonce ?? randomBytes(16);
  const created = (options.created ?? new Date()).toISOString();
  const password = options.digest
    ? createHash('sha1')
        .update(Buffer.concat([nonce, Buffer.from(created + secret, 'utf8')]))
        .digest('base64')
    : secret;
  const type = options.digest ? 'PasswordDigest' : 'PasswordText';
  return (
    `<soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"><wsse:UsernameToken>` +
    `<wsse:Username>${name}</wsse:Username>` +
    `<wsse:Password Type="${TOKEN_PROFILE}#${type}">${password}</wsse:Password>` +
    `<wsse:Nonce>${nonce.toString('base64')}</wsse:Nonce><wsu:Created>${created}</wsu:Created>` +
    '</wsse:UsernameToken></wsse:Security></soap:Header>'
  );
}

/** A caller registry on a store of its own, as a process of the service holds it, on the test's clock. */
export interface TestRegistry {
  readonly registry: CallerRegistry;
  readonly store: Store;
  /** The callers' secrets by name. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Stops the registry, closes the store and removes its folder. */
  close(): Promise<void>;
}

/** Opens a new store with these callers and the registry on it (which reads them), on `clock`. */
export async function openTestRegistry(
  callers: readonly TestCaller[],
  clock: () => Date,
  settings: AccessSettings = readAccessSettings({}),
): Promise<TestRegistry> {
  const folder = mkdtempSync(join(tmpdir(), 'school-registry-'));
  const store = await openTestStore({ DATA_DIR: folder });
  const secrets = await addTestCallers(store, callers);
  const registry = await CallerRegistry.open(store, settings, testDigestSealer(), clock);
  return {
    registry,
    store,
    secrets,
    close: async () => {
      registry.stop();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A running service on the test school in a data folder of its own, as seen from other addresses. */
export interface RemoteTestSchool {
  readonly service: RunningService;
  /** The data folder, for a second look at the store or a restart on it. */
  readonly folder: string;
  /** Stops the service and removes the folder. */
  close(): Promise<void>;
}

/** Loads the test school into a new data folder and starts a service on it with REMOTE_TEST_SETTINGS and `settings`. */
export async function startRemoteTestSchool(
  settings: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RemoteTestSchool> {
  const folder = mkdtempSync(join(tmpdir(), 'school-access-'));
  const school = await openTestSchool({ DATA_DIR: folder });
  await school.close();
  const service = await startTestService(
    { ...REMOTE_TEST_SETTINGS, DATA_DIR: folder, DEMO_DATA: 'off', ...settings },
    options,
  );
  return {
    service,
    folder,
    close: async () => {
      await service.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A test school (as startRemoteTestSchool starts it) whose callers are added and read; their secrets by name. */
export interface SchoolWithCallers extends RemoteTestSchool {
  readonly secrets: Readonly<Record<string, string>>;
}

/**
 * Starts a test school as seen from other addresses with these callers, added as the callers
 * command adds them and read by the service before it resolves; `secrets` holds each one's secret
 * (a caller recognised by network alone has none).
 */
export async function startSchoolWithCallers(
  callers: readonly TestCaller[],
  settings: Record<string, string> = {},
  options: StartOptions = {},
): Promise<SchoolWithCallers> {
  const school = await startRemoteTestSchool(settings, options);
  const secrets = await addTestCallers(school.service.store, callers);
  await school.service.readCallers();
  return { ...school, secrets };
}

/** A refusal as the log writes it. */
export interface LoggedRefusal {
  readonly address: string;
  readonly operation: string;
  readonly binding: string;
  readonly caller?: string;
  readonly reason: string;
}

/**
 * The refusals logged while `work` runs, in order, and all the log's text (to show what it does not
 * hold): the log is taken from stderr at level warn, and silenced again after.
 */
export async function refusalsLogged(work: () => Promise<void>): Promise<{ refusals: LoggedRefusal[]; text: string }> {
  const lines: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  setLogLevel('warn');
  try {
    await work();
  } finally {
    // The log gathers lines and writes them together: out with them before the spy goes.
    flushLog();
    setLogLevel('silent');
    write.mockRestore();
  }
  const text = lines.join('');
  // Several lines may come in one write.
  const refusals = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedRefusal & { message: string })
    .filter((line) => line.message === 'call refused');
  return { refusals, text };
}
