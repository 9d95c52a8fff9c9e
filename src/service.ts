import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config/service-config';
import { type Catalog, loadCatalog } from './contract/catalog';
import { WSDL_DIRECTORY } from './contract/wsdl-directory';
import { flushLog, log, configureLog } from './lib/log';
import { bindOperations, type Operations } from './operations/registry';
import { District, type DistrictParts } from './district/district';
import { openSchool, type School, type SchoolShared } from './school/school';
import { answerFigureRequests } from './status/cluster-figures';
import { closeServer, type IdleConnections } from './server/close-server';
import { type ClientTimeLimits, createHttpServer } from './server/http-server';
import { unreadyReason } from './server/readiness';
import type { RequestTracking } from './server/request-tracking';
import { listeningAddresses } from './server/listening-addresses';
import { ProcessTelemetry } from './telemetry/process-telemetry';
import { openStore, type Store } from './store/open-store';

export interface RunningService {
  readonly url: string;
  /** Every address it answers on (each interface's when bound to all of them). */
  readonly addresses: readonly string[];
  readonly catalog: Catalog;
  readonly operations: Operations;
  readonly store: Store;
  /** The clock "current" year and term follow. */
  readonly clock: () => Date;
  /**
   * Reads the callers now, rather than at the next ACCESS_REFRESH_MS: once it resolves, calls are
   * decided by the callers the store held when it was asked (for a tool, or a test, that changed them).
   */
  readCallers(): Promise<void>;
  /** Writes the audit entries held so far, rather than at the next AUDIT_FLUSH_MS; resolves once they are stored. */
  writeAudit(): Promise<void>;
  /** How many of a district's registered schools this process holds open now (SCHOOLS_OPEN_MAX bounds it). */
  schoolsOpen(): number;
  /**
   * Stops soon, as a test or a tool wants: idle keep-alive connections are closed at once, calls
   * in flight get SHUTDOWN_TIMEOUT_MS to finish.
   */
  close(): Promise<void>;
  /**
   * Stops without losing a call, as on SIGTERM: /readyz answers 503 at once; after
   * SHUTDOWN_DELAY_MS no connection is accepted; every response closes its connection after it;
   * calls in flight get SHUTDOWN_TIMEOUT_MS to finish; the delivery worker's sends end (or are
   * abandoned at the same deadline) and the messages it holds are given back; the audit trail and
   * the log are written out.
   */
  drain(): Promise<void>;
}

export interface StartOptions {
  /** The clock "current" year and term follow; the system clock unless a test pins it. */
  readonly now?: () => Date;
  /** How long clients have to send headers and requests; the documented 20 s and 30 s unless a test shortens them. */
  readonly clientTimeLimits?: ClientTimeLimits;
  /** How long after the start the first scheduled SIS sync runs; 5 s unless a test shortens it. */
  readonly firstSyncAfterMs?: number;
  /** How long after the start the retention after leaving first looks; a minute unless a test shortens it. */
  readonly firstRetentionAfterMs?: number;
}

/** The endpoint path of every operation, for handlers that forward a call to a partner school. */
function endpointPaths(catalog: Catalog): (operationName: string) => string {
  const paths = new Map<string, string>();
  for (const endpoint of catalog.endpoints) {
    for (const operation of endpoint.operations)
      if (!paths.has(operation.name)) paths.set(operation.name, endpoint.path);
  }
  return (operationName) => {
    const path = paths.get(operationName);
    if (path === undefined) throw new Error(`no endpoint serves ${operationName}`);
    return path;
  };
}

/** The address to call a server at: bound to every interface, this machine's own loopback reaches it. */
function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A real address, not "localhost".
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  return `http://${urlHost}:${address.port}`;
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
}

/** What stopping the process stops: the server and its connections, the figures it answers, the school. */
interface ProcessParts {
  readonly config: Config;
  readonly server: Server;
  readonly tracking: RequestTracking;
  readonly school: School;
  /** The deployment's registered schools, followed as its list changes (none on PostgreSQL). */
  readonly district: District | undefined;
  readonly stopAnswering: () => void;
  /** Marks the process as stopping, so that /readyz answers 503 at once. */
  readonly markStopping: () => void;
}

/** The process's stop, once whichever way it is asked for: see RunningService.close and drain. */
function stopper(parts: ProcessParts): (idle: IdleConnections) => Promise<void> {
  const { config, server, tracking, school, district } = parts;
  let stopped: Promise<void> | undefined;
  const stop = async (idle: IdleConnections) => {
    parts.markStopping();
    const { shutdownTimeoutMs, shutdownDelayMs } = config.operator;
    const delayMs = idle === 'let-expire' ? shutdownDelayMs : 0;
    const deadline = Date.now() + delayMs + shutdownTimeoutMs;
    tracking.closeConnectionsAfterResponses();
    district?.closeConnectionsAfterResponses();
    let serverClosed: Promise<void> | undefined;
    // Every school waits for the one server, closed once.
    const callsEnded = () => {
      serverClosed ??= (async () => {
        if (delayMs > 0) await sleep(delayMs);
        await closeServer(server, deadline, idle);
        parts.stopAnswering();
      })();
      return serverClosed;
    };
    await Promise.all([school.close({ deadline, callsEnded }), district?.close({ deadline, callsEnded })]);
    flushLog();
  };
  return (idle) => {
    stopped ??= stop(idle);
    return stopped;
  };
}

/**
 * What the deployment's own school sees of the district, which opens after it: the schools its
 * status page lists and the schools its calls reach in process, both asked once the port is open.
 */
function districtViews(district: () => District | undefined): Pick<SchoolShared, 'districtSchools' | 'siblingSchools'> {
  return {
    districtSchools: () => district()?.listed() ?? [],
    siblingSchools: { find: (address, requestBaseUrl) => district()?.deploymentSiblings.find(address, requestBaseUrl) },
  };
}

/**
 * The deployment's registered schools, which reach its own school's pipeline in process; the
 * deployment's school is closed when their list does not read back.
 */
function openDistrict(school: School, parts: DistrictParts): Promise<District | undefined> {
  return District.open({ ...parts, deploymentPipeline: school.pipeline }).catch(async (error: unknown) => {
    await school.close();
    throw error;
  });
}

/**
 * Loads the catalog, opens the store and the school on it, and listens; resolves once the port is
 * open. The process's own parts (the server and its router, the telemetry, the figures it answers
 * to its supervisor) are composed here with the school (src/school/school.ts).
 */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  configureLog(config);
  const clock = options.now ?? (() => new Date());
  const catalog = await loadCatalog(WSDL_DIRECTORY);
  const operations = bindOperations(catalog);
  const telemetry = new ProcessTelemetry();
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDirectory: config.dataDirectory,
    queryTook: (ms) => telemetry.storeQueryTook(ms),
  });
  let node = `${hostname()}:${config.port}`;
  const shared = {
    config,
    operations,
    telemetry,
    endpointPathOf: endpointPaths(catalog),
    clock,
    node: () => node,
    firstSyncAfterMs: options.firstSyncAfterMs,
    firstRetentionAfterMs: options.firstRetentionAfterMs,
    // The district opens after the deployment's school.
    ...districtViews(() => district),
  };
  const school = await openSchool(store, shared);
  let stopping = false;
  const district = await openDistrict(school, {
    config,
    catalog,
    // The district callers are the deployment's store's, which its own school's registry reads.
    shared: { ...shared, districtCallers: school.districtCallers },
    stopping: () => stopping,
  });
  const { server, tracking } = createHttpServer(
    {
      config,
      catalog,
      pipeline: school.pipeline,
      provider: school.provider,
      telemetry,
      figures: school.figures,
      unreadyReason: () => unreadyReason(store, stopping),
    },
    options.clientTimeLimits,
  );
  telemetry.countRequestsInFlight(tracking.inFlight);
  district?.takeRequestsOf(server, tracking.listener);
  await listen(server, config).catch(async (error: unknown) => {
    await Promise.all([school.close(), district?.close()]);
    throw error;
  });
  log.info('store open', { engine: store.engine.name, location: store.location });
  const address = server.address() as AddressInfo;
  node = `${hostname()}:${address.port}`;
  school.serve();
  district?.serve();
  const stopAnswering = answerFigureRequests(() => telemetry.snapshot());
  const markStopping = () => {
    stopping = true;
  };
  const stop = stopper({ config, server, tracking, school, district, stopAnswering, markStopping });
  return {
    url: urlOf(address),
    addresses: listeningAddresses(address),
    catalog,
    operations,
    store,
    clock,
    readCallers: async () => {
      await Promise.all([school.readCallers(), district?.readCallers()]);
    },
    writeAudit: async () => {
      await Promise.all([school.writeAudit(), district?.writeAudit()]);
    },
    schoolsOpen: () => district?.openCount ?? 0,
    close: () => stop('close-now'),
    drain: () => stop('let-expire'),
  };
}
