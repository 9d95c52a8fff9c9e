import type { Catalog } from '../contract/catalog';
import type { Config } from '../config/service-config';
import type { CallPipeline } from '../pipeline/call-pipeline';

/** What the HTTP server is built from: the settings, the catalog read from wsdl/, and the call pipeline. */
export interface ServiceParts {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly pipeline: CallPipeline;
}
