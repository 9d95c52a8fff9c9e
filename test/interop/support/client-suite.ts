import type { RunningService } from '../../../src/service';
import { startTestService } from '../../support/service';
import { SOAP11_ENV, SOAP12_ENV } from '../../support/soap';
import type { ClientCall, SoapVersion } from './client-process';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy';
import { SPEC_OPERATIONS, operationKeys } from './spec-operations';

const VERSIONS: SoapVersion[] = ['1.1', '1.2'];
const ENVELOPE_NAMESPACE: Record<SoapVersion, string> = { '1.1': SOAP11_ENV, '1.2': SOAP12_ENV };
const MEDIA_TYPE: Record<SoapVersion, string> = { '1.1': 'text/xml', '1.2': 'application/soap+xml' };

/**
 * The tests every client stack must pass, registered in the caller's describe. `runClientStack`
 * gets the base URL to read the WSDL from and returns the calls its client program reported; it
 * runs once, against a fresh service behind a recording proxy that shows what went over the wire.
 */
export function testClientStack(runClientStack: (baseUrl: string) => Promise<ClientCall[]>): void {
  let service: RunningService | undefined;
  let proxy: RecordingProxy | undefined;
  let calls: ClientCall[] = [];

  beforeAll(async () => {
    service = await startTestService();
    proxy = await startRecordingProxy(service.url);
    calls = await runClientStack(proxy.url);
  });

  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  test.each(VERSIONS)('calls all 18 operations on the 16 endpoints over SOAP %s, none failing', (version) => {
    const ofVersion = calls.filter((call) => call.version === version);
    expect(ofVersion.filter((call) => !call.ok).map((call) => `${call.endpoint} ${call.operation}: ${call.error}`)).toEqual([]);
    expect(operationKeys(ofVersion)).toEqual(operationKeys(SPEC_OPERATIONS));
    expect(ofVersion).toHaveLength(18);
    expect(new Set(ofVersion.map((call) => call.endpoint)).size).toBe(16);
  });

  test.each(VERSIONS)('gets "Hello World" from HelloWorld over SOAP %s', (version) => {
    expect(calls.find((call) => call.version === version && call.operation === 'HelloWorld')?.result).toBe('Hello World');
  });

  test.each(VERSIONS)('really sends the SOAP %s calls as that version: envelope namespace and Content-Type', (version) => {
    const sent = proxy?.requests.filter((request) => request.envelopeNamespace === ENVELOPE_NAMESPACE[version]) ?? [];
    expect(sent.filter((request) => request.mediaType !== MEDIA_TYPE[version])).toEqual([]);
    expect(operationKeys(sent)).toEqual(operationKeys(SPEC_OPERATIONS));
  });

  test('posts nothing but SOAP 1.1 and SOAP 1.2 envelopes', () => {
    const known = Object.values(ENVELOPE_NAMESPACE);
    expect(proxy?.requests.filter((request) => !known.includes(request.envelopeNamespace ?? ''))).toEqual([]);
  });
}
