import type { Config } from './config';
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
}

/** The context a handler runs in for one call from the given address. */
export function operationContextFor(service: ServiceContext, callerAddress: string | undefined): OperationContext {
  return { callerAddress: callerAddress ?? '', db: service.store.db, today: service.now().toISOString().slice(0, 10) };
}
