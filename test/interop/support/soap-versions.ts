import { SOAP11_ENV, SOAP12_ENV } from '../../support/soap';
import type { SoapVersion } from './client-process';
import type { RecordedRequest } from './recording-proxy';
import { operationKeys } from './spec-operations';

export const VERSIONS: readonly SoapVersion[] = ['1.1', '1.2'];
const ENVELOPE_NAMESPACE: Record<SoapVersion, string> = { '1.1': SOAP11_ENV, '1.2': SOAP12_ENV };
const MEDIA_TYPE: Record<SoapVersion, string> = { '1.1': 'text/xml', '1.2': 'application/soap+xml' };

/**
 * The tests that hold a client to what went over the wire rather than to what it reports: each
 * version's calls were sent in that version's envelope with its Content-Type, and nothing else
 * was posted. `expectedOperationKeys` are the calls each version must have made (operationKeys).
 */
export function testWireVersions(
  recordedRequests: () => readonly RecordedRequest[],
  expectedOperationKeys: readonly string[],
): void {
  test.each(VERSIONS)(
    'really sends the SOAP %s calls as that version: envelope namespace and Content-Type',
    (version) => {
      const sent = recordedRequests().filter((request) => request.envelopeNamespace === ENVELOPE_NAMESPACE[version]);
      expect(sent.filter((request) => request.mediaType !== MEDIA_TYPE[version])).toEqual([]);
      expect(operationKeys(sent)).toEqual(expectedOperationKeys);
    },
  );

  test('posts nothing but SOAP 1.1 and SOAP 1.2 envelopes', () => {
    const known = Object.values(ENVELOPE_NAMESPACE);
    expect(recordedRequests().filter((request) => !known.includes(request.envelopeNamespace ?? ''))).toEqual([]);
  });
}
