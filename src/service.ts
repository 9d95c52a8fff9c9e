import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config/service-config';
import { type Catalog, loadCatalog } from './contract/catalog';
import { WSDL_DIRECTORY } from './contract/wsdl-directory';
import { CallerRegistry } from './access/caller-registry';
import { TokenSigner } from './access/oauth-tokens';
import { exportedRowsOf } from './provider/exported-rows';
import { AuditTrail } from './audit/audit-trail';
import { keyFor, payloadSealer } from './lib/payload-sealer';
import { openStoreKey } from './store/store-key';
import { type DeliveryWorker, startDeliveryWorker } from './delivery/worker';
import { flushLog, log, configureLog } from './lib/log';
import { serviceVersion } from './lib/package-info';
import { bindOperations, type Operations, showsNoRecords } from './operations/registry';
import { CallPipeline } from './pipeline/call-pipeline';
import { Comparisons } from './migration/comparisons';
import { ForwardSlots } from './migration/forward-slots';
import { ShadowLedger } from './migration/shadow-ledger';
import { TrafficRecorder } from './migration/traffic-recorder';
import { answerFigureRequests } from './status/cluster-figures';
import { closeServer, type IdleConnections } from './server/close-server';
import { type ClientTimeLimits, createHttpServer } from './server/http-server';
import { type Presence, startPresence } from './status/presence';
import { unreadyReason } from './server/readiness';
import { ServiceFigures } from './status/service-figures';
import { listeningAddresses } from './server/listening-addresses';
import { type SyncSchedule, startSyncSchedule } from './sis/sync-schedule';
import { type RetentionSchedule, startRetentionSchedule } from './store/privacy/retention-schedule';
import { ProcessTelemetry } from './telemetry/process-telemetry';
import { academicYearStartOf } from './demo/calendar';
import { loadDemoSchool } from './demo/load-demo-school';
import { storeIsEmpty } from './store/queries/store-facts';
import { openStore, type Store } from './store/open-store';

/** The size of the demo school a new embedded store gets on first start. */
export const FIRST_START_DEMO_STUDENTS = 500;
export const FIRST_START_DEMO_SEED = 1;

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

/** A new embedded store gets a small demo school, so that a first start shows real answers. */
async function fillNewEmbeddedStore(store: Store, config: Config, now: Date): Promise<void> {
  if (store.engine !== 'sqlite' || !config.demoData || !(await storeIsEmpty(store))) return;
  const summary = await loadDemoSchool(store, {
    students: FIRST_START_DEMO_STUDENTS,
    seed: FIRST_START_DEMO_SEED,
    startYear: academicYearStartOf(now),
  });
  log.info('new store filled with a demo school (DEMO_DATA=off prevents this)', { ...summary });
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

/** Opens the store, loads the catalog, binds the operations and listens; resolves once the port is open. */
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
  let serviceKey: Buffer;
  try {
    await fillNewEmbeddedStore(store, config, clock());
    // The store's own key, or a refusal naming the setting to fix: never seal with another.
    ({ key: serviceKey } = await openStoreKey(store, {
      outboxKey: config.delivery.outboxKey,
      dataDirectory: config.dataDirectory,
    }));
  } catch (error) {
    await store.close();
    throw error;
  }
  const sealer = payloadSealer(serviceKey);
  const digestSealer = payloadSealer(keyFor(serviceKey, 'caller-digest-secrets'));
  const callers = await CallerRegistry.open(store, config.access, digestSealer, clock);
  const audit = new AuditTrail(
    { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory },
    { flushMs: config.access.auditFlushMs, retentionDays: config.access.auditRetentionDays },
  );
  const worker: DeliveryWorker | undefined =
    config.delivery.worker === 'in-process'
      ? startDeliveryWorker(store, config.delivery, sealer, {
          now: clock,
          attempted: (channel, result) => telemetry.gatewayAttempt(channel, result),
        })
      : undefined;
  const services = {
    store,
    notificationSettings: config.notifications,
    sealer,
    // The worker looks once the answer is on its way, so that its claim is no part of the answer's time.
    outboxChanged: worker ? () => void setImmediate(() => worker.wake()) : () => undefined,
    endpointPathOf: endpointPaths(catalog),
    clock,
  };
  const settings = { ...config, trustedProxies: config.access.trustedProxies };
  // Without a legacy service or a recording every operation is local, and nothing of the migration is made.
  const { recordFile } = config.migration;
  const migration =
    config.migration.legacyUrl === undefined && recordFile === undefined
      ? undefined
      : {
          settings: config.migration,
          comparisons: new Comparisons(
            { ...config.migration, showsNoRecords },
            new ShadowLedger(store, config.migration, clock),
          ),
          forwards: new ForwardSlots({
            perCaller: config.migration.legacyInFlightPerCaller,
            perAddress: config.migration.legacyInFlightPerAddress,
          }),
          recorder: recordFile === undefined ? undefined : new TrafficRecorder({ ...config.migration, recordFile }),
        };
  const pipeline = new CallPipeline({ operations, services, settings, callers, audit, migration });
  /** Once the calls have ended: the comparisons and the audit trail written out, the store closed. */
  const closeParts = async () => {
    callers.stop();
    await migration?.comparisons.close();
    await migration?.recorder?.close();
    await audit.close();
    await store.close();
  };
  let stopping = false;
  let node = `${hostname()}:${config.port}`;
  let presence: Presence | undefined;
  let schedule: SyncSchedule | undefined;
  let retention: RetentionSchedule | undefined;
  const figures = new ServiceFigures({
    telemetry,
    store,
    node: () => node,
    presence: () => presence,
    migration: config.migration,
    sync: () => ({ nextRunAt: schedule?.nextRunAt(), lastAttempt: schedule?.lastAttempt() }),
  });
  const { server, tracking } = createHttpServer(
    {
      config,
      catalog,
      pipeline,
      provider: {
        callers,
        tokens: new TokenSigner(keyFor(serviceKey, 'oauth-tokens')),
        tokenTtlSeconds: config.access.oauthTokenTtlSeconds,
        requestsPerMinute: config.access.oneRosterRequestsPerMinute,
        store,
        exportedRows: exportedRowsOf(store),
        address: config,
        notify: { sealer, perDevicePerMinute: config.notifications.pushPerDevicePerMinute },
        outboxChanged: services.outboxChanged,
        audit,
        clock,
      },
      telemetry,
      figures,
      unreadyReason: () => unreadyReason(store, stopping),
    },
    options.clientTimeLimits,
  );
  telemetry.countRequestsInFlight(tracking.inFlight);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (error: unknown) => {
    await worker?.stop();
    await closeParts();
    throw error;
  });
  log.info('store open', { engine: store.engine, location: store.location });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Bound to every interface, this machine's own loopback reaches it: a real address, not "localhost".
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  node = `${hostname()}:${address.port}`;
  presence = startPresence(store, { node, version: serviceVersion(), startedAt: telemetry.startedAt });
  const stopAnswering = answerFigureRequests(() => telemetry.snapshot());
  if (config.retentionAfterLeavingDays !== undefined) {
    const retentionSettings = {
      afterLeavingDays: config.retentionAfterLeavingDays,
      defaultCountryCode: config.notifications.defaultCountryCode,
    };
    retention = startRetentionSchedule(store, retentionSettings, {
      node: () => node,
      now: clock,
      firstAfterMs: options.firstRetentionAfterMs,
    });
  }
  if (config.sis.url && config.sis.intervalMs > 0) {
    schedule = startSyncSchedule(store, config.sis, {
      defaultCountryCode: config.notifications.defaultCountryCode,
      notify: config.sis.notifyMarks
        ? { sealer, perDevicePerMinute: config.notifications.pushPerDevicePerMinute }
        : undefined,
      firstAfterMs: options.firstSyncAfterMs,
      // New marks' notifications are in the outbox: the worker looks now rather than at its next poll.
      ended: (outcome) => {
        if (outcome.notified > 0) services.outboxChanged();
      },
    });
  }

  let stopped: Promise<void> | undefined;
  const stop = (idle: IdleConnections): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      const { shutdownTimeoutMs, shutdownDelayMs } = config.operator;
      const delayMs = idle === 'let-expire' ? shutdownDelayMs : 0;
      const deadline = Date.now() + delayMs + shutdownTimeoutMs;
      tracking.closeConnectionsAfterResponses();
      // The delivery worker stops claiming at once, and ends its sends by the same deadline.
      const delivery = worker?.stop(deadline);
      // A sync under way may end with its one transaction (or its failure) before the store closes.
      const syncing = schedule?.stop();
      await retention?.stop();
      if (delayMs > 0) await sleep(delayMs);
      await closeServer(server, deadline, idle);
      stopAnswering();
      await delivery;
      // Past the deadline it is abandoned: closing the store rolls it back whole, and its lease runs out.
      if (syncing) {
        const waited = new AbortController();
        const limit = sleep(Math.max(0, deadline - Date.now()), undefined, { signal: waited.signal }).catch(() => {});
        await Promise.race([syncing, limit]);
        waited.abort();
      }
      await presence?.leave();
      await closeParts();
      flushLog();
    })();
    return stopped;
  };
  return {
    url: `http://${urlHost}:${address.port}`,
    addresses: listeningAddresses(address),
    catalog,
    operations,
    store,
    clock,
    readCallers: () => callers.refresh(),
    writeAudit: () => audit.flush(),
    close: () => stop('close-now'),
    drain: () => stop('let-expire'),
  };
}
