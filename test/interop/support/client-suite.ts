import type { ClientCall } from './client-process';
import { SAMPLE_SERVICE_SETTINGS } from './sample-arguments';
import { useServiceBehindProxy } from './service-behind-proxy';
import { testWireVersions, VERSIONS } from './soap-versions';
import { SPEC_OPERATIONS, operationKeys } from './spec-operations';

/**
 * The tests every client stack must pass, registered in the caller's describe. `runClientStack`
 * gets the base URL to read the WSDL from and returns the calls its client program reported; it
 * runs once, against a fresh service behind a recording proxy that shows what went over the wire.
 */
export function testClientStack(runClientStack: (baseUrl: string) => Promise<ClientCall[]>): void {
  const running = useServiceBehindProxy(SAMPLE_SERVICE_SETTINGS);
  let calls: ClientCall[] = [];

  beforeAll(async () => {
    calls = await runClientStack(running.proxy.url);
  });

  test.each(VERSIONS)('calls all 18 operations on the 16 endpoints over SOAP %s, none failing', (version) => {
    const ofVersion = calls.filter((call) => call.version === version);
    expect(
      ofVersion.filter((call) => !call.ok).map((call) => `${call.endpoint} ${call.operation}: ${call.error}`),
    ).toEqual([]);
    expect(operationKeys(ofVersion)).toEqual(operationKeys(SPEC_OPERATIONS));
    expect(ofVersion).toHaveLength(18);
    expect(new Set(ofVersion.map((call) => call.endpoint)).size).toBe(16);
  });

  test.each(VERSIONS)('gets "Hello World" from HelloWorld over SOAP %s', (version) => {
    expect(calls.find((call) => call.version === version && call.operation === 'HelloWorld')?.result).toBe(
      'Hello World',
    );
  });

  testWireVersions(() => running.proxy.requests, operationKeys(SPEC_OPERATIONS));
}
