import type { Endpoint, Operation } from '../../contract/catalog';
import type { BodyElement } from './request-reader';
import { SOAP11, type SoapVersion } from './soap-version';

/**
 * Chooses the operation for a SOAP request as ASMX does. SOAP 1.1: the SOAPAction header, or the
 * Body's element when the header is absent. SOAP 1.2: the Content-Type's action parameter, or the
 * Body's element when the action is missing or unknown.
 */
export type Dispatch = { kind: 'operation'; operation: Operation } | { kind: 'unrecognised'; reason: string };

export class EndpointDispatcher {
  private readonly byAction = new Map<string, Operation>();
  private readonly byElement = new Map<string, Operation>();

  constructor(
    endpoint: Endpoint,
    private readonly namespace: string,
  ) {
    for (const operation of endpoint.operations) {
      this.byAction.set(namespace + operation.name, operation);
      this.byElement.set(operation.name, operation);
    }
  }

  private byBodyElement(element: BodyElement | undefined): Operation | undefined {
    return element && element.namespace === this.namespace ? this.byElement.get(element.localName) : undefined;
  }

  select(
    version: SoapVersion,
    soapAction: string | undefined,
    actionParameter: string | undefined,
    element: BodyElement | undefined,
  ): Dispatch {
    if (version === SOAP11) {
      const action = soapAction === undefined ? undefined : unquote(soapAction.trim());
      const operation = action === undefined ? this.byBodyElement(element) : this.byAction.get(action);
      if (operation) return { kind: 'operation', operation };
      return {
        kind: 'unrecognised',
        reason: `Server did not recognize the value of HTTP Header SOAPAction: ${action ?? ''}.`,
      };
    }
    const operation = (actionParameter && this.byAction.get(actionParameter)) || this.byBodyElement(element);
    if (operation) return { kind: 'operation', operation };
    if (!actionParameter) {
      return {
        kind: 'unrecognised',
        reason: 'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
      };
    }
    return {
      kind: 'unrecognised',
      reason: `Unable to handle request. The action '${actionParameter}' was not recognized.`,
    };
  }
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
