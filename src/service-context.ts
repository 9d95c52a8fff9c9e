import type { IncomingMessage } from 'node:http';
import type { Config } from './config';
import type { PayloadSealer } from './delivery/payload-sealer';
import { normaliseBaseUrl } from './notifications/school-address';
import { baseUrlFor } from './wire/base-url';
import type { Catalog } from './contract/catalog';
import type { OperationContext } from './operations/operation';
import type { HandlerLookup } from './operations/registry';
import type { Store } from './store/open-store';

/** What every binding needs: the settings, the catalog read from wsdl/, the handlers, the store. */
export interface ServiceContext {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly handlerFor: HandlerLookup;
  readonly store: Store;
  /** The service's clock; tests may pin it. */
  readonly now: () => Date;
  /** Wakes the delivery worker after messages were committed to the outbox; a no-op without one. */
  outboxChanged: () => void;
  readonly sealer: PayloadSealer;
}

/** The header a partner school's instance carries its shared secret in when it forwards a call. */
export const FEDERATION_HEADER = 'x-school-federation';

/** The context a handler runs in for one call. */
export function operationContextFor(service: ServiceContext, request: IncomingMessage): OperationContext {
  const now = service.now();
  const credential = request.headers[FEDERATION_HEADER];
  return {
    callerAddress: request.socket.remoteAddress ?? '',
    federationCredential: Array.isArray(credential) ? credential[0] : credential,
    config: service.config,
    db: service.store.db,
    engine: service.store.engine,
    now,
    today: now.toISOString().slice(0, 10),
    outboxChanged: service.outboxChanged,
    sealer: service.sealer,
    ownSchoolUrl: () => {
      const { config } = service;
      return (
        config.notifications.schoolBaseUrl ??
        normaliseBaseUrl(baseUrlFor(request, config.publicBaseUrl, `localhost:${config.port}`)) ??
        ''
      );
    },
    endpointPathOf: (operationName) => {
      const operation = service.catalog.operations.find((candidate) => candidate.name === operationName);
      const endpoint = service.catalog.endpoints.find((candidate) => candidate.name === operation?.endpointName);
      if (!endpoint) throw new Error(`no endpoint serves ${operationName}`);
      return endpoint.path;
    },
  };
}
