import type { Config } from './config';
import type { Catalog } from './contract/catalog';
import type { HandlerLookup } from './operations/registry';

/** What every binding needs: the settings, the catalog read from wsdl/, and the handlers. */
export interface ServiceContext {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly handlerFor: HandlerLookup;
}
