import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { addTestCaller, REMOTE_TEST_SETTINGS } from '../support/callers';
import { type ClientCall, runClient } from './support/client-process';
import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { SAMPLE_SERVICE_SETTINGS } from './support/sample-arguments';
import { useServiceBehindProxy } from './support/service-behind-proxy';
import { SPEC_ENDPOINTS } from './support/spec-operations';

// Debian's Python, which has python3-zeep; the pyenv python3 first on PATH does not.
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'zeep-client.py');

describeWithTools([PYTHON])('zeep (python3-zeep) reading the live WSDL', () => {
  testClientStack((baseUrl) => runClient(PYTHON, [CLIENT, baseUrl, ...SPEC_ENDPOINTS]));
});

describeWithTools([PYTHON])('zeep from another machine with HTTP Basic', () => {
  testRemoteClientStack(
    (baseUrl, credentials) =>
      runClient(PYTHON, [CLIENT, baseUrl, ...SPEC_ENDPOINTS], { env: { ...process.env, ...credentials } }),
    { credential: 'basic' },
  );
});

describeWithTools([PYTHON])('zeep from another machine with a WS-Security UsernameToken (PasswordDigest)', () => {
  testRemoteClientStack(
    (baseUrl, credentials) =>
      runClient(PYTHON, [CLIENT, baseUrl, ...SPEC_ENDPOINTS], { env: { ...process.env, ...credentials } }),
    { credential: 'ws-digest' },
  );
});

describeWithTools([PYTHON])('zeep from another machine without credentials', () => {
  const running = useServiceBehindProxy({ ...SAMPLE_SERVICE_SETTINGS, ...REMOTE_TEST_SETTINGS }, { from: '127.0.0.2' });
  test('gets HelloWorld, and a refusal of every other operation', async () => {
    const calls = await runClient<ClientCall>(PYTHON, [CLIENT, running.proxy.url, ...SPEC_ENDPOINTS]);
    expect(calls).toHaveLength(36);
    expect(calls.filter((call) => call.ok).map((call) => call.operation)).toEqual(['HelloWorld', 'HelloWorld']);
    expect(calls.find((call) => !call.ok)?.error).toContain('school-service callers add');
  });
});

describeWithTools([PYTHON])('zeep behind a trusted reverse proxy, let in by its forwarded network', () => {
  const running = useServiceBehindProxy(
    { ...SAMPLE_SERVICE_SETTINGS, ...REMOTE_TEST_SETTINGS, TRUSTED_PROXIES: '127.0.0.1/32' },
    { forwardedFor: '198.51.100.7' },
    async (service) => {
      await addTestCaller(service.store, { name: 'branch-office', networks: ['198.51.100.0/24'] });
      await service.readCallers();
    },
  );
  test('calls all 18 operations over SOAP 1.1 and 1.2 without credentials', async () => {
    const calls = await runClient<ClientCall>(PYTHON, [CLIENT, running.proxy.url, ...SPEC_ENDPOINTS]);
    expect(calls.filter((call) => !call.ok)).toEqual([]);
    expect(calls).toHaveLength(36);
  });
});
