import type { ProviderParts } from '../bindings/oneroster/provider-parts';
import type { Catalog } from '../contract/catalog';
import type { Config } from '../config/service-config';
import type { CallPipeline } from '../pipeline/call-pipeline';
import type { ProcessTelemetry } from '../telemetry/process-telemetry';
import type { ServiceFigures } from '../status/service-figures';

/**
 * What the HTTP server is built from: the settings, the catalog read from wsdl/, the call
 * pipeline, and for the operator's endpoints the process's figures and its readiness.
 */
export interface ServiceParts {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly pipeline: CallPipeline;
  /** What the OneRoster provider's endpoints answer from. */
  readonly provider: ProviderParts;
  readonly telemetry: ProcessTelemetry;
  readonly figures: ServiceFigures;
  /** Why this process should not be sent calls now; undefined when it should. */
  readonly unreadyReason: () => Promise<string | undefined>;
}
