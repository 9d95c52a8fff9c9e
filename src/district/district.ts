import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Config } from '../config/service-config';
import type { Catalog } from '../contract/catalog';
import { log } from '../lib/log';
import { openSchool, type School, type SchoolClosing, type SchoolShared } from '../school/school';
import { type ClientTimeLimits, createHttpServer } from '../server/http-server';
import { unreadyReason } from '../server/readiness';
import type { RequestTracking } from '../server/request-tracking';
import { openStore } from '../store/open-store';
import { schoolConfig } from './school-config';
import { SchoolEntryError, type SchoolEntry } from './school-entry';
import { readSchools } from './school-list';

/** A registered school as the process serves it: its School unit and the request listener of its own router. */
interface ServedSchool {
  readonly entry: SchoolEntry;
  readonly school: School;
  readonly tracking: RequestTracking;
}

/** What the process composes a district with, beside each school's settings. */
export interface DistrictParts {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly shared: SchoolShared;
  readonly clientTimeLimits?: ClientTimeLimits;
  /** Whether the process is stopping (each school's /readyz says so as the deployment's does). */
  readonly stopping: () => boolean;
}

/**
 * The registered schools of a deployment, each its own School unit on its own store, reached at
 * /slug/...: the district's listener takes the first path segment, and a registered school's
 * request goes to its router with the segment taken off (its pages and WSDL name it again through
 * the school's PATH prefix). Any other request goes on to the deployment's own school, which
 * answers an unknown /slug with the 404 page as for any unknown path.
 */
export class District {
  private readonly byPath = new Map<string, ServedSchool>();

  private constructor(schools: readonly ServedSchool[]) {
    for (const served of schools) this.byPath.set(served.entry.path, served);
  }

  /** Opens every registered school, or none when the deployment lists none (it then serves as before). */
  static async open(parts: DistrictParts): Promise<District | undefined> {
    const entries = readSchools(parts.config.dataDirectory);
    if (entries.length === 0) return undefined;
    if (parts.config.databaseUrl !== undefined) {
      throw new SchoolEntryError(
        'schools are listed in DATA_DIR but the store is PostgreSQL (DATABASE_URL): ' +
          'a district is served on SQLite only for now',
      );
    }
    const opened: ServedSchool[] = [];
    try {
      for (const entry of entries) opened.push(await openServedSchool(entry, parts));
    } catch (error) {
      await Promise.all(opened.map((served) => served.school.close()));
      throw error;
    }
    log.info('district schools open', { schools: opened.length });
    return new District(opened);
  }

  get size(): number {
    return this.byPath.size;
  }

  /** The schools served, as the deployment's status page lists them. */
  listed(): SchoolEntry[] {
    return [...this.byPath.values()].map((served) => served.entry);
  }

  /** The listener that routes a registered school's requests to it and the rest to `deployment`. */
  listener(deployment: RequestListener): RequestListener {
    return (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url ?? '';
      const end = url.indexOf('/', 1);
      const served = end > 0 ? this.byPath.get(url.slice(0, end)) : undefined;
      if (!served) {
        deployment(request, response);
        return;
      }
      request.url = url.slice(end);
      served.tracking.listener(request, response);
    };
  }

  /** Makes `server` hand the registered schools' requests to their routers, and the rest to `deployment` as before. */
  takeRequestsOf(server: Server, deployment: RequestListener): void {
    server.removeListener('request', deployment);
    server.on('request', this.listener(deployment));
  }

  /** Starts each school's own rounds, once the port is open. */
  serve(): void {
    for (const served of this.byPath.values()) served.school.serve();
  }

  closeConnectionsAfterResponses(): void {
    for (const served of this.byPath.values()) served.tracking.closeConnectionsAfterResponses();
  }

  readCallers(): Promise<unknown> {
    return Promise.all([...this.byPath.values()].map((served) => served.school.readCallers()));
  }

  writeAudit(): Promise<unknown> {
    return Promise.all([...this.byPath.values()].map((served) => served.school.writeAudit()));
  }

  close(closing: SchoolClosing = {}): Promise<unknown> {
    return Promise.all([...this.byPath.values()].map((served) => served.school.close(closing)));
  }
}

async function openServedSchool(entry: SchoolEntry, parts: DistrictParts): Promise<ServedSchool> {
  const config = schoolConfig(parts.config, entry);
  const { telemetry } = parts.shared;
  const store = await openStore({
    databaseUrl: undefined,
    dataDirectory: config.dataDirectory,
    queryTook: (ms) => telemetry.storeQueryTook(ms),
  });
  const school = await openSchool(store, { ...parts.shared, config });
  const { tracking } = createHttpServer(
    {
      config,
      catalog: parts.catalog,
      pipeline: school.pipeline,
      provider: school.provider,
      telemetry,
      figures: school.figures,
      unreadyReason: () => unreadyReason(store, parts.stopping()),
    },
    parts.clientTimeLimits,
  );
  return { entry, school, tracking };
}
