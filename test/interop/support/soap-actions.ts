import { NS, SOAP11_ENV, SOAP12_ENV } from '../../support/soap';
import type { RecordedRequest } from './recording-proxy';

/** Where each version carries the action: SOAP 1.1 in the SOAPAction header, SOAP 1.2 in the Content-Type. */
const VERSION_ACTIONS = [
  { version: '1.1', envelope: SOAP11_ENV, where: 'the SOAPAction header', action: 'soapAction' },
  { version: '1.2', envelope: SOAP12_ENV, where: "the Content-Type's action parameter", action: 'actionParameter' },
] as const;

/**
 * Holds a client to the action it sent with each call, as the recording proxy saw it: the
 * operation's SOAPAction from the WSDL, in the place the envelope's version puts it. The service
 * also finds the operation from the Body, so a client that sent no action would pass the other tests.
 */
export function testWireActions(
  recordedRequests: () => readonly RecordedRequest[],
  expectedCalls: ReadonlyArray<{ endpoint: string; operation: string }>,
): void {
  test.each(VERSION_ACTIONS)('names each SOAP $version call by its operation in $where', ({ envelope, action }) => {
    const sent = recordedRequests().filter((request) => request.envelopeNamespace === envelope);
    expect(sent.map((request) => `${request.endpoint} ${request.operation} ${request[action]}`).sort()).toEqual(
      expectedCalls.map(({ endpoint, operation }) => `${endpoint} ${operation} ${NS}${operation}`).sort(),
    );
  });
}
