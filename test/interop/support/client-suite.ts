import type { RunningService } from '../../../src/service';
import { addTestCaller, REMOTE_TEST_SETTINGS } from '../../support/callers';
import type { ClientCall } from './client-process';
import { SAMPLE_SERVICE_SETTINGS } from './sample-arguments';
import { type ServiceBehindProxy, useServiceBehindProxy } from './service-behind-proxy';
import { testWireVersions, VERSIONS } from './soap-versions';
import { operationKeys, SPEC_OPERATIONS } from './spec-operations';

/**
 * The tests every client stack must pass, registered in the caller's describe. `runClientStack`
 * gets the base URL to read the WSDL from (and, calling from another machine, the environment with
 * its credentials) and returns the calls its client program reported; it runs once, against a
 * fresh service behind a recording proxy that shows what went over the wire. Returns the service
 * and proxy, for a stack's own checks of what its client sent.
 */
export function testClientStack(
  runClientStack: (baseUrl: string) => Promise<ClientCall[]>,
  settings: Record<string, string> = {},
): ServiceBehindProxy {
  const running = useServiceBehindProxy({ ...SAMPLE_SERVICE_SETTINGS, ...settings });
  let calls: ClientCall[] = [];
  beforeAll(async () => {
    calls = await runClientStack(running.proxy.url);
  });
  testCalls(() => calls, running);
  return running;
}

/** How a stack's client proves who it is when it calls from another machine. */
export interface RemoteAccess {
  /** HTTP Basic with the caller's name and secret, or a WS-Security UsernameToken with a PasswordDigest. */
  readonly credential: 'basic' | 'ws-digest';
  /** .NET's way: a call is first sent without credentials, challenged (401), then sent again with them. */
  readonly answersChallenge?: boolean;
}

/** The environment a client program reads its credentials from. */
export interface CredentialEnvironment {
  readonly SERVICE_USER: string;
  readonly SERVICE_SECRET: string;
  /** "digest" for a WS-Security UsernameToken with a PasswordDigest, else empty: HTTP Basic. */
  readonly SERVICE_WS_SECURITY: string;
}

/**
 * The same tests with the client on another machine: the service's only local network is
 * 127.0.0.1, the proxy reaches it from 127.0.0.2, and the client sends a caller's credentials
 * its own way. Every operation must still answer normally.
 */
export function testRemoteClientStack(
  runClientStack: (baseUrl: string, credentials: CredentialEnvironment) => Promise<ClientCall[]>,
  access: RemoteAccess,
): void {
  let secret = '';
  const addCaller = async (service: RunningService) => {
    const wsDigest = access.credential === 'ws-digest';
    secret = (await addTestCaller(service.store, { name: 'interop', secret: true, wsDigest })) as string;
    await service.readCallers();
  };
  const running = useServiceBehindProxy(
    { ...SAMPLE_SERVICE_SETTINGS, ...REMOTE_TEST_SETTINGS },
    { from: '127.0.0.2' },
    addCaller,
  );
  let calls: ClientCall[] = [];
  beforeAll(async () => {
    const credentials = {
      SERVICE_USER: 'interop',
      SERVICE_SECRET: secret,
      SERVICE_WS_SECURITY: access.credential === 'ws-digest' ? 'digest' : '',
    };
    calls = await runClientStack(running.proxy.url, credentials);
  });
  testCalls(() => calls, running, access.answersChallenge === true);

  if (access.credential === 'basic') {
    test('sends every call but HelloWorld with its credentials, and every such call is answered', () => {
      const answered = running.proxy.requests.filter((request) => request.status !== 401);
      const withoutCredentials = answered.filter(
        (request) => !request.authorized && request.operation !== 'HelloWorld',
      );
      expect(withoutCredentials).toEqual([]);
    });
  }
  if (access.answersChallenge) {
    test('first sends a call without credentials, and sends them once challenged (401)', () => {
      const operations = SPEC_OPERATIONS.filter(({ operation }) => operation !== 'HelloWorld');
      for (const { endpoint, operation } of operations) {
        const sent = running.proxy.requests.filter(
          (request) => request.endpoint === endpoint && request.operation === operation,
        );
        expect([operation, sent.some((request) => !request.authorized && request.status === 401)]).toEqual([
          operation,
          true,
        ]);
        expect([operation, sent.some((request) => request.authorized && request.status !== 401)]).toEqual([
          operation,
          true,
        ]);
      }
    });
  }
}

function testCalls(calls: () => ClientCall[], running: ServiceBehindProxy, retriedAfterChallenge = false): void {
  test.each(VERSIONS)('calls all 18 operations on the 16 endpoints over SOAP %s, none failing', (version) => {
    const ofVersion = calls().filter((call) => call.version === version);
    expect(
      ofVersion.filter((call) => !call.ok).map((call) => `${call.endpoint} ${call.operation}: ${call.error}`),
    ).toEqual([]);
    expect(operationKeys(ofVersion)).toEqual(operationKeys(SPEC_OPERATIONS));
    expect(ofVersion).toHaveLength(18);
    expect(new Set(ofVersion.map((call) => call.endpoint)).size).toBe(16);
  });

  test.each(VERSIONS)('gets "Hello World" from HelloWorld over SOAP %s', (version) => {
    expect(calls().find((call) => call.version === version && call.operation === 'HelloWorld')?.result).toBe(
      'Hello World',
    );
  });

  // A call sent twice (without, then with credentials) is on the wire twice: compare the answered ones.
  const answered = () => running.proxy.requests.filter((request) => !retriedAfterChallenge || request.status !== 401);
  testWireVersions(answered, operationKeys(SPEC_OPERATIONS));
}
