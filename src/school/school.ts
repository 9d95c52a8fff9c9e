import { CallerRegistry } from '../access/caller-registry';
import type { DistrictCallers } from '../access/caller-set';
import { TokenSigner } from '../access/oauth-tokens';
import type { ProviderParts } from '../bindings/oneroster/provider-parts';
import { AuditTrail } from '../audit/audit-trail';
import type { Config } from '../config/service-config';
import { type DeliveryWorker, startDeliveryWorker } from '../delivery/worker';
import type { SiblingSchools } from '../federation/sibling-schools';
import { keyFor, type PayloadSealer, payloadSealer } from '../lib/payload-sealer';
import type { OperationServices } from '../operations/operation';
import type { Operations } from '../operations/registry';
import { CallPipeline } from '../pipeline/call-pipeline';
import { exportedRowsOf } from '../provider/exported-rows';
import type { Store } from '../store/open-store';
import { ServiceFigures } from '../status/service-figures';
import type { ListedSchool } from '../status/school-figures';
import type { ProcessTelemetry } from '../telemetry/process-telemetry';
import { firstOpen } from './first-open';
import { closeMigrationParts, migrationParts } from './migration-parts';
import { SchoolRounds } from './school-rounds';

/** What the process lends each school: the parts every school of it shares. */
export interface SchoolShared {
  readonly config: Config;
  readonly operations: Operations;
  readonly telemetry: ProcessTelemetry;
  /** The path of the endpoint that serves an operation, for handlers that forward a call to a partner school. */
  readonly endpointPathOf: (operationName: string) => string;
  /** The clock "current" year and term follow. */
  readonly clock: () => Date;
  /** This machine's name and port, as the figures and the processes serving name it; known once the server listens. */
  readonly node: () => string;
  readonly firstSyncAfterMs?: number;
  readonly firstRetentionAfterMs?: number;
  /** The other schools of the deployment, for the calls that name one of them (SendMarkNotes, GetNameAbsenceType). */
  readonly siblingSchools?: SiblingSchools;
  /** The district's schools, for the deployment's own status page; none in a deployment of one school. */
  readonly districtSchools?: () => readonly ListedSchool[];
  /** The deployment's district callers, let in at a registered school beside its own (none at the deployment's). */
  readonly districtCallers?: DistrictCallers;
}

/** How a school is closed by a process that stops: by when, and the calls to wait for. */
export interface SchoolClosing {
  /** A Date.now() time: the delivery worker's sends and a sync under way are abandoned past it. */
  readonly deadline?: number;
  /**
   * Ends the calls the school answers (the server closing), once the school takes no work of its
   * own any more and before it drains: the calls use its trail and its store until they end.
   */
  readonly callsEnded?: () => Promise<void>;
}

/**
 * One school: everything built on its store (the callers, the audit trail, the delivery worker,
 * the migration's shadow ledger, the figures, the processes serving, the retention and the SIS
 * sync schedule, the pipeline and the services its handlers use), opened by openSchool and closed
 * by close(). The process composes the server, the router and the telemetry with it.
 */
export interface School {
  readonly store: Store;
  readonly pipeline: CallPipeline;
  readonly figures: ServiceFigures;
  /** What the school's OneRoster provider endpoints answer from. */
  readonly provider: ProviderParts;
  /** Reads the callers now, rather than at the next ACCESS_REFRESH_MS. */
  readCallers(): Promise<void>;
  /** The district callers of this school's store, for the registered schools (only the deployment's holds any). */
  readonly districtCallers: DistrictCallers;
  /** Writes the audit entries held so far, rather than at the next AUDIT_FLUSH_MS. */
  writeAudit(): Promise<void>;
  /** Starts the school's own rounds once it answers calls (see SchoolRounds). */
  serve(): void;
  /**
   * Closes the school, in order: it stops taking work (the delivery worker claims no message, the
   * schedules start nothing), waits for the calls to end, drains (the worker's sends, a sync under
   * way, both by the deadline), writes out the audit trail and the comparisons, removes its row
   * among the processes serving (its last write) and closes the store. Called again, it answers the
   * first call's promise.
   */
  close(closing?: SchoolClosing): Promise<void>;
}

/** The school's delivery worker, when it runs in this process (DELIVERY_WORKER=in-process). */
function deliveryWorker(store: Store, shared: SchoolShared, sealer: PayloadSealer): DeliveryWorker | undefined {
  const { config, clock, telemetry } = shared;
  if (config.delivery.worker !== 'in-process') return undefined;
  return startDeliveryWorker(store, config.delivery, sealer, {
    now: clock,
    attempted: (channel, result) => telemetry.gatewayAttempt(channel, result),
    school: config.school,
  });
}

/** Closes the store when `open` fails: a school half opened holds nothing. */
async function closingOnFailure<T>(store: Store, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** What the school's OneRoster provider endpoints answer from: its callers' tokens, its store and trail. */
function providerParts(
  config: Config,
  parts: {
    store: Store;
    serviceKey: Buffer;
    callers: CallerRegistry;
    audit: AuditTrail;
    services: OperationServices;
  },
): ProviderParts {
  const { store, serviceKey, callers, audit, services } = parts;
  return {
    callers,
    tokens: new TokenSigner(keyFor(serviceKey, 'oauth-tokens')),
    tokenTtlSeconds: config.access.oauthTokenTtlSeconds,
    requestsPerMinute: config.access.oneRosterRequestsPerMinute,
    tombstoneDays: config.access.oneRosterTombstoneDays,
    store,
    exportedRows: exportedRowsOf(store),
    address: config,
    notify: { sealer: services.sealer, perDevicePerMinute: config.notifications.pushPerDevicePerMinute },
    outboxChanged: services.outboxChanged,
    audit,
    clock: services.clock,
  };
}

/** The school's audit trail, in its store; a district school's entries name it. */
function auditTrailOf(config: Config): AuditTrail {
  return new AuditTrail(
    { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory },
    {
      flushMs: config.access.auditFlushMs,
      retentionDays: config.access.auditRetentionDays,
      school: config.school,
    },
  );
}

/** Builds a school on `store`, which it owns from here: it closes it, also when opening fails. */
export async function openSchool(store: Store, shared: SchoolShared): Promise<School> {
  const { config, clock } = shared;
  const serviceKey = await closingOnFailure(store, () => firstOpen(store, config, clock()));
  const sealer = payloadSealer(serviceKey);
  const digestSealer = payloadSealer(keyFor(serviceKey, 'caller-digest-secrets'));
  const callers = await closingOnFailure(store, () =>
    CallerRegistry.open(store, config.access, digestSealer, clock, shared.districtCallers),
  );
  const audit = auditTrailOf(config);
  const worker = deliveryWorker(store, shared, sealer);
  const services: OperationServices = {
    store,
    notificationSettings: config.notifications,
    sealer,
    // The worker looks once the answer is on its way, so that its claim is no part of the answer's time.
    outboxChanged: worker ? () => void setImmediate(() => worker.wake()) : () => undefined,
    endpointPathOf: shared.endpointPathOf,
    clock,
    siblingSchools: shared.siblingSchools,
  };
  const migration = migrationParts(config.migration, store, clock);
  const pipeline = new CallPipeline({
    operations: shared.operations,
    services,
    settings: config,
    callers,
    audit,
    migration,
  });
  const rounds = new SchoolRounds({
    ...shared,
    store,
    sealer,
    startedAt: shared.telemetry.startedAt,
    outboxChanged: services.outboxChanged,
  });
  const figures = new ServiceFigures({
    telemetry: shared.telemetry,
    store,
    node: shared.node,
    presence: () => rounds.presence,
    migration: config.migration,
    sync: () => rounds.syncFigures(),
    school: config.school,
    districtSchools: shared.districtSchools,
  });
  const provider = providerParts(config, { store, serviceKey, callers, audit, services });
  let closed: Promise<void> | undefined;
  const closeInOrder = async ({ deadline, callsEnded }: SchoolClosing) => {
    // The delivery worker stops claiming at once, and ends its sends by the same deadline.
    const delivery = worker?.stop(deadline);
    await rounds.stopIntake();
    await callsEnded?.();
    await provider.exportedRows.close();
    await delivery;
    await rounds.drain(deadline);
    callers.stop();
    await closeMigrationParts(migration);
    await audit.close();
    await rounds.leave();
    await store.close();
  };
  return {
    store,
    pipeline,
    figures,
    provider,
    readCallers: () => callers.refresh(),
    districtCallers: callers.districtCallers(),
    writeAudit: () => audit.flush(),
    serve: () => rounds.start(),
    close: (closing = {}) => {
      closed ??= closeInOrder(closing);
      return closed;
    },
  };
}
