import type { ClientCall } from './client-process';
import { useServiceBehindProxy } from './service-behind-proxy';
import { testWireVersions, VERSIONS } from './soap-versions';
import { SPEC_OPERATIONS, operationKeys } from './spec-operations';

/**
 * The tests every client stack must pass, registered in the caller's describe. `runClientStack`
 * gets the base URL to read the WSDL from and returns the calls its client program reported; it
 * runs once, against a fresh service behind a recording proxy that shows what went over the wire.
 */
/**
 * The clients send a type's sample value ("1") for every parameter. Three operations have rules
 * that refuse it with a Server fault; for those the test checks that the client stack read the
 * fault and its reason, which is as much a part of interoperating as a normal response.
 */
const RULE_FAULTS_FOR_SAMPLES: Readonly<Record<string, RegExp>> = {
  AuthCode: /code must be 4 to 8 digits/,
  SendMarkNotes: /baseUrlSchool is not a registered school/,
  GetNameAbsenceType: /baseUrlSchool is not a registered school/,
};

export function testClientStack(runClientStack: (baseUrl: string) => Promise<ClientCall[]>): void {
  const running = useServiceBehindProxy();
  let calls: ClientCall[] = [];

  beforeAll(async () => {
    calls = await runClientStack(running.proxy.url);
  });

  test.each(VERSIONS)('calls all 18 operations on the 16 endpoints over SOAP %s, each answered normally or with its rule fault', (version) => {
    const ofVersion = calls.filter((call) => call.version === version);
    const unexpected = ofVersion.filter((call) => {
      const fault = RULE_FAULTS_FOR_SAMPLES[call.operation ?? ''];
      return fault ? call.ok || !fault.test(String(call.error)) : !call.ok;
    });
    expect(unexpected.map((call) => `${call.endpoint} ${call.operation}: ${call.ok ? 'answered normally, expected its rule fault' : call.error}`)).toEqual([]);
    expect(operationKeys(ofVersion)).toEqual(operationKeys(SPEC_OPERATIONS));
    expect(ofVersion).toHaveLength(18);
    expect(new Set(ofVersion.map((call) => call.endpoint)).size).toBe(16);
  });

  test.each(VERSIONS)('gets "Hello World" from HelloWorld over SOAP %s', (version) => {
    expect(calls.find((call) => call.version === version && call.operation === 'HelloWorld')?.result).toBe('Hello World');
  });

  testWireVersions(() => running.proxy.requests, operationKeys(SPEC_OPERATIONS));
}
