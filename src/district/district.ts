import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Config } from '../config/service-config';
import type { Catalog } from '../contract/catalog';
import type { SiblingSchools } from '../federation/sibling-schools';
import { log } from '../lib/log';
import { openSchool, type SchoolClosing, type SchoolShared } from '../school/school';
import type { CallPipeline } from '../pipeline/call-pipeline';
import { type RequestRouting, requestRouting, trackSchoolRequests } from '../server/http-server';
import { unreadyReason } from '../server/readiness';
import { openStore } from '../store/open-store';
import { hostNameOf } from '../wire/host-name';
import { type ListWatch, watchList } from './list-watch';
import { schoolConfig } from './school-config';
import type { SchoolEntry } from './school-entry';
import { type KeptSchool, SchoolKeeper } from './school-keeper';
import { readSchools } from './school-list';
import { SchoolGone, SchoolSlot } from './school-slot';
import { startSchoolVisits } from './school-visits';
import { DistrictSiblings } from './sibling-schools';

/** What the process composes a district with, beside each school's settings. */
export interface DistrictParts {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly shared: SchoolShared;
  /** Whether the process is stopping (each school's /readyz says so as the deployment's does). */
  readonly stopping: () => boolean;
  /** The deployment's own school's call pipeline: the registered schools reach it in process. */
  readonly deploymentPipeline?: CallPipeline;
}

/** Two entries that route and open alike: a school whose path, host, name or own settings changed is served anew. */
function sameEntry(a: SchoolEntry, b: SchoolEntry): boolean {
  return (
    a.sourcedId === b.sourcedId &&
    a.path === b.path &&
    a.host === b.host &&
    a.name === b.name &&
    JSON.stringify(a.settings ?? {}) === JSON.stringify(b.settings ?? {})
  );
}

/**
 * The registered schools of a deployment, each its own School unit on its own store, reached at
 * /slug/... and, for a school with a host, at the bare paths on requests sent to that host: the
 * district's listener takes the first path segment, and a registered school's request goes to its
 * router with the segment taken off (its pages and WSDL name it again through the school's PATH
 * prefix). Any other request goes on to the deployment's own school, which answers an unknown
 * /slug with the 404 page as for any unknown path. The district follows the list in DATA_DIR while
 * it runs (list-watch.ts): a school added is served at once, a school removed answers 404 at once
 * and is closed once its calls have ended. Each school opens at its first request and closes when
 * idle, within SCHOOLS_OPEN_MAX (school-keeper.ts).
 */
export class District {
  private readonly slots = new Map<string, SchoolSlot>();
  private byPath = new Map<string, SchoolSlot>();
  private byHost = new Map<string, SchoolSlot>();
  private readonly keeper: SchoolKeeper;
  private watch: ListWatch | undefined;
  private stopVisits: (() => void) | undefined;
  private serving = false;
  private closingConnections = false;

  private readonly parts: DistrictParts;
  private readonly siblings: DistrictSiblings;
  /** The router, bindings and pages every school's requests go through, with the school's own parts. */
  private readonly routing: RequestRouting;
  /**
   * Each listed school's settings, read once rather than at each opening and each look of the
   * visits: an entry changed in the list is a new entry, served by a new slot.
   */
  private readonly configs = new WeakMap<SchoolEntry, Config>();

  private constructor(parts: DistrictParts) {
    // Each school reaches the others in process (SendMarkNotes and GetNameAbsenceType to a sibling).
    const siblingSchools = new DistrictSiblings({
      config: parts.config,
      catalog: parts.catalog,
      entries: () => [...this.slots.values()].map((slot) => slot.entry),
      inSchool: (entry, work) => this.slotOf(entry).serveInProcess((opened) => work(opened.school.pipeline)),
      deploymentPipeline: parts.deploymentPipeline,
    });
    this.siblings = siblingSchools;
    this.parts = { ...parts, shared: { ...parts.shared, siblingSchools } };
    this.routing = requestRouting(parts.config, parts.catalog);
    this.keeper = new SchoolKeeper(parts.config.schools, (entry) => this.openSchool(entry));
  }

  /** The slot of a school still listed; a school removed meanwhile is gone (404 as at its paths). */
  private slotOf(entry: SchoolEntry): SchoolSlot {
    const slot = this.slots.get(entry.sourcedId);
    if (!slot) throw new SchoolGone(entry.sourcedId);
    return slot;
  }

  /**
   * The deployment's registered schools, followed while the process runs; none on PostgreSQL,
   * where a district is not served yet (a list found there stops the start).
   */
  static async open(parts: DistrictParts): Promise<District | undefined> {
    const entries = readSchools(parts.config.dataDirectory);
    // On PostgreSQL a deployment that lists no school serves as before; on SQLite it follows its list.
    if (parts.config.databaseUrl !== undefined && entries.length === 0) return undefined;
    const district = new District(parts);
    district.follow(entries);
    district.watch = watchList(parts.config.dataDirectory, () => district.readList());
    if (entries.length > 0) log.info('district schools listed', { schools: entries.length });
    return district;
  }

  /** The registered schools as the deployment's own school reaches them, in process. */
  get deploymentSiblings(): SiblingSchools {
    return this.siblings.ofDeploymentSchool;
  }

  /** How many schools this process holds open now. */
  get openCount(): number {
    return this.keeper.openCount;
  }

  /** The schools served, as the deployment's status page lists them. */
  listed(): SchoolEntry[] {
    return [...this.slots.values()].map((slot) => slot.entry);
  }

  /** The listener that routes a registered school's requests to it and the rest to `deployment`. */
  listener(deployment: RequestListener): RequestListener {
    return (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url ?? '';
      const end = url.indexOf('/', 1);
      let slot = end > 0 ? this.byPath.get(url.slice(0, end)) : undefined;
      if (slot) request.url = url.slice(end);
      else if (this.byHost.size > 0) slot = this.byHost.get(hostNameOf(request.headers.host) ?? '');
      if (slot) slot.handle(request, response);
      else deployment(request, response);
    };
  }

  /** Makes `server` hand the registered schools' requests to their routers, and the rest to `deployment` as before. */
  takeRequestsOf(server: Server, deployment: RequestListener): void {
    server.removeListener('request', deployment);
    server.on('request', this.listener(deployment));
  }

  /** Starts each open school's own rounds once the port is open; a school opened later starts them as it opens. */
  serve(): void {
    this.serving = true;
    for (const opened of this.openSchools()) opened.school.serve();
    this.stopVisits = startSchoolVisits(() => this.slots.values(), this.keeper, {
      retention: this.parts.config.retentionAfterLeavingDays !== undefined,
      idleCloseMs: this.parts.config.schools.idleCloseMs,
      syncsOnSchedule: (slot) => syncsOnSchedule(this.configOf(slot.entry)),
    });
  }

  closeConnectionsAfterResponses(): void {
    this.closingConnections = true;
    for (const opened of this.openSchools()) opened.tracking.closeConnectionsAfterResponses();
  }

  readCallers(): Promise<unknown> {
    return Promise.all(this.openSchools().map((opened) => opened.school.readCallers()));
  }

  writeAudit(): Promise<unknown> {
    return Promise.all(this.openSchools().map((opened) => opened.school.writeAudit()));
  }

  /** Follows the list no more, opens no school, and closes every open one. */
  close(closing: SchoolClosing = {}): Promise<unknown> {
    this.watch?.stop();
    this.stopVisits?.();
    this.keeper.stop();
    return Promise.all([...this.slots.values()].map((slot) => slot.close(closing)));
  }

  private openSchools() {
    return [...this.slots.values()].flatMap((slot) => (slot.opened ? [slot.opened] : []));
  }

  /** Reads the list again after it changed; a list that does not read back leaves the schools served as they were. */
  private readList(): void {
    try {
      this.follow(readSchools(this.parts.config.dataDirectory));
    } catch (error) {
      log.error('the list of schools changed but does not read back: the schools served stay as they were', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Serves the schools of `entries`: a new one at once, one gone (or changed) no more, closed once its calls end. */
  private follow(entries: readonly SchoolEntry[]): void {
    const listed = new Map(entries.map((entry) => [entry.sourcedId, entry]));
    for (const [sourcedId, slot] of this.slots) {
      const entry = listed.get(sourcedId);
      if (entry && sameEntry(entry, slot.entry)) continue;
      this.slots.delete(sourcedId);
      this.retire(slot);
    }
    for (const entry of entries) {
      if (this.slots.has(entry.sourcedId)) continue;
      this.slots.set(entry.sourcedId, new SchoolSlot(entry, this.keeper));
      if (this.watch) log.info('school added: served from now on', { school: entry.sourcedId, path: entry.path });
    }
    this.byPath = new Map([...this.slots.values()].map((slot) => [slot.entry.path, slot]));
    this.byHost = new Map(
      [...this.slots.values()].flatMap((slot) => (slot.entry.host ? [[slot.entry.host, slot] as const] : [])),
    );
  }

  /** A school no longer listed: its calls in flight end, then it closes, and the process holds nothing of it. */
  private retire(slot: SchoolSlot): void {
    log.info('school no longer listed: closing it once its calls end', { school: slot.entry.sourcedId });
    slot.retire().then(
      () => log.info('school let go', { school: slot.entry.sourcedId }),
      (error: unknown) =>
        log.error('a school no longer listed failed to close', {
          school: slot.entry.sourcedId,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  }

  private configOf(entry: SchoolEntry): Config {
    let config = this.configs.get(entry);
    if (!config) {
      config = schoolConfig(this.parts.config, entry);
      this.configs.set(entry, config);
    }
    return config;
  }

  private async openSchool(entry: SchoolEntry): Promise<KeptSchool> {
    const opened = await openServedSchool(this.configOf(entry), this.parts, this.routing);
    if (this.serving) opened.school.serve();
    if (this.closingConnections) opened.tracking.closeConnectionsAfterResponses();
    return opened;
  }
}

/** Whether a school pulls from a SIS of its own on a schedule: it is then kept open (see school-keeper.ts). */
function syncsOnSchedule(config: Config): boolean {
  return config.sis.url !== undefined && config.sis.intervalMs > 0;
}

/**
 * Opens a registered school: its store, its School unit and its requests' tracking over the
 * district's routing. Its retention first looks within half the idle time, so that a school opened
 * for a while runs it (once a day per store).
 */
async function openServedSchool(config: Config, parts: DistrictParts, routing: RequestRouting): Promise<KeptSchool> {
  const { telemetry } = parts.shared;
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDirectory: config.dataDirectory,
    queryTook: (ms) => telemetry.storeQueryTook(ms),
  });
  const firstRetentionAfterMs = parts.shared.firstRetentionAfterMs ?? Math.min(60_000, config.schools.idleCloseMs / 2);
  const school = await openSchool(store, { ...parts.shared, config, firstRetentionAfterMs });
  const tracking = trackSchoolRequests(
    {
      config,
      catalog: parts.catalog,
      pipeline: school.pipeline,
      provider: school.provider,
      telemetry,
      figures: school.figures,
      unreadyReason: () => unreadyReason(store, parts.stopping()),
    },
    routing,
  );
  return { school, tracking, syncsOnSchedule: syncsOnSchedule(config) };
}
