import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LOCAL_NETWORKS } from '../config/access-settings';
import type { Config } from '../config/service-config';
import { log } from '../lib/log';
import { type NetworkList, parseNetworks } from '../lib/networks';
import { statusPage } from '../pages/status-page';
import { recordOf } from '../telemetry/request-record';
import { send } from '../wire/send';
import type { ServiceFigures } from '../status/service-figures';

/** The paths of the operator's endpoints: health, readiness, metrics, the status page. */
export const OPERATOR_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/readyz',
  '/metrics',
  '/status',
  '/status.json',
]);

const TEXT = 'text/plain; charset=utf-8';
/** The machine itself, whatever LOCAL_NETWORKS says: a check run on the machine always gets an answer. */
const LOOPBACK = parseNetworks(DEFAULT_LOCAL_NETWORKS);

export interface OperatorParts {
  readonly config: Config;
  readonly figures: ServiceFigures;
  /** Why this process should not be sent calls now; undefined when it should. */
  readonly unreadyReason: () => Promise<string | undefined>;
}

/**
 * GET /healthz (the process answers), /readyz (it should be sent calls), /metrics (Prometheus),
 * /status and /status.json (the status page). None needs credentials, and none answers just
 * anyone: health and readiness are for the machine itself, the balancers (TRUSTED_PROXIES) and the
 * monitoring networks; metrics and the status page for METRICS_NETWORKS only. The client's address
 * is the one the access rules use everywhere: behind a trusted proxy, the one it forwarded, so a
 * caller from outside does not reach these through the balancer.
 */
export class OperatorRoutes {
  private readonly healthNetworks: readonly NetworkList[];

  constructor(private readonly parts: OperatorParts) {
    const { access, operator } = parts.config;
    this.healthNetworks = [LOOPBACK, access.trustedProxies, operator.metricsNetworks];
  }

  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      send(response, 405, TEXT, `The method ${request.method} is not allowed here.\n`);
      return;
    }
    const address = recordOf(response)?.address ?? '';
    const health = path === '/healthz' || path === '/readyz';
    const allowed = health
      ? this.healthNetworks.some((networks) => networks.contains(address))
      : this.parts.config.operator.metricsNetworks.contains(address);
    if (!allowed) {
      log.warn('operator endpoint refused', { school: this.parts.config.school, address, path });
      const who = health ? 'this machine, TRUSTED_PROXIES and METRICS_NETWORKS' : 'METRICS_NETWORKS';
      send(response, 403, TEXT, `${path} is answered only to ${who}.\n`);
      return;
    }
    switch (path) {
      case '/healthz':
        send(response, 200, TEXT, 'ok\n');
        return;
      case '/readyz': {
        const reason = await this.parts.unreadyReason();
        send(response, reason === undefined ? 200 : 503, TEXT, `${reason ?? 'ready'}\n`);
        return;
      }
      case '/metrics': {
        const { contentType, text } = await this.parts.figures.metricsText();
        send(response, 200, contentType, text);
        return;
      }
      case '/status':
        send(response, 200, 'text/html; charset=utf-8', statusPage(await this.parts.figures.statusReport()));
        return;
      default:
        send(response, 200, 'application/json; charset=utf-8', JSON.stringify(await this.parts.figures.statusReport()));
    }
  }
}
