import type { NetworkList } from '../lib/networks';
import { DEFAULT_LOCAL_NETWORKS, readNetworks } from './access-settings';
import { type Environment, readInteger } from './readers';

/** What the machine's operator sets for watching the service and for stopping it without losing calls. */
export interface OperatorSettings {
  /**
   * Who may read /metrics, /status and /status.json (and /healthz, /readyz): by default the
   * LOCAL_NETWORKS, so that narrowing those narrows these pages too.
   */
  readonly metricsNetworks: NetworkList;
  /** How long a stopping process lets the calls in flight finish before it cuts their connections. */
  readonly shutdownTimeoutMs: number;
  /**
   * How long a stopping process keeps accepting connections while /readyz already answers 503, so
   * that a balancer checking it stops sending first.
   */
  readonly shutdownDelayMs: number;
}

export function readOperatorSettings(env: Environment): OperatorSettings {
  return {
    metricsNetworks: readNetworks(env, 'METRICS_NETWORKS', env.LOCAL_NETWORKS ?? DEFAULT_LOCAL_NETWORKS),
    shutdownTimeoutMs: readInteger(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    shutdownDelayMs: readInteger(env, 'SHUTDOWN_DELAY_MS', 0, 0, 60_000),
  };
}
