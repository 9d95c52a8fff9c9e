import { isOperationName as isOperation } from '../contract/operation-names';
import { readAnswerBudgets } from './answer-budgets';
import { OPERATION_NAMES, type OperationName } from '../contract/operation-types';
import type { RequestBudgets } from './request-budgets';
import { ConfigError, readAbsoluteUrl, readInteger, readSwitch, type Environment } from './readers';

/**
 * Who answers an operation while a school moves from its legacy ASMX service to this one:
 * - `local`: this service (the default, and the only route without LEGACY_URL);
 * - `legacy`: the legacy service, its answer returned unchanged;
 * - `shadow`: the legacy answer is returned, this service answers too and the two are compared;
 * - `canary`: this service's answer is returned, the legacy one fetched and compared.
 */
export type Route = 'local' | 'legacy' | 'shadow' | 'canary';
export const ROUTE_NAMES: readonly Route[] = ['local', 'legacy', 'shadow', 'canary'];

/** Every operation of the contract has a route. */
export const MIGRATED_OPERATIONS = OPERATION_NAMES;

/** A field path operators said not to compare, for one operation or ('*') for all. */
export interface IgnoredPath {
  readonly operation: OperationName | '*';
  /** The path's steps; '*' stands for any one step. */
  readonly steps: readonly string[];
}

export interface MigrationSettings {
  /** The legacy service's base URL, its .asmx paths below it; undefined when there is none. */
  readonly legacyUrl: string | undefined;
  /** The route of every operation: the one table the call path resolves routes in. */
  readonly routes: { readonly [Name in OperationName]: Route };
  /** How long a call to the legacy service may take, whole. */
  readonly legacyTimeoutMs: number;
  /** The largest legacy answer read; a larger one is a legacy error. */
  readonly legacyMaxBytes: number;
  /** Calls of one caller (all callers without credentials as one) waiting for the legacy service at once. */
  readonly legacyInFlightPerCaller: number;
  /** Calls from one address waiting for the legacy service at once. */
  readonly legacyInFlightPerAddress: number;
  /** One call in this many is sent to the legacy service twice to learn its noise; 0 never. */
  readonly noiseSample: number;
  readonly ignored: readonly IgnoredPath[];
  /** Comparisons waiting to run at once; beyond it, a comparison is dropped (and counted), never the call. */
  readonly maxPending: number;
  /** What an answer compared may hold, and so how much one comparison may cost (answer-budgets.ts). */
  readonly answerBudgets: RequestBudgets;
  /** How many days of comparison figures and differences the store keeps. */
  readonly keepDays: number;
  /** How often the comparisons' counts, kept in memory, are added to the store's. */
  readonly flushMs: number;
  /** Where the calls are recorded for a replay (`serve --record FILE`); undefined records nothing. */
  readonly recordFile: string | undefined;
  /** Whether loopback callers' calls are recorded too (`--record-loopback`); they are tests and checks, mostly. */
  readonly recordLoopback: boolean;
  /** The size past which recording stops, so that a forgotten recording does not fill the disk. */
  readonly recordMaxBytes: number;
}

function routeNamed(raw: string, entry: string): Route {
  const route = ROUTE_NAMES.find((candidate) => candidate === raw.trim().toLowerCase());
  if (!route) throw new ConfigError(`ROUTES: "${entry}" names no route; a route is one of ${ROUTE_NAMES.join(', ')}`);
  return route;
}

/**
 * Reads ROUTES, `default=shadow,GetStudentInfoById=canary,AuthCode=legacy`: a route for every
 * operation not named, and one per operation named. Every route but local needs LEGACY_URL.
 */
export function readRoutes(raw: string | undefined, legacyUrl: string | undefined): MigrationSettings['routes'] {
  let fallback: Route = 'local';
  const named = new Map<OperationName, Route>();
  for (const entry of (raw ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const equals = entry.indexOf('=');
    if (equals === -1) throw new ConfigError(`ROUTES: "${entry}" must be operation=route or default=route`);
    const name = entry.slice(0, equals).trim();
    const route = routeNamed(entry.slice(equals + 1), entry);
    if (name === 'default') fallback = route;
    else if (isOperation(name)) named.set(name, route);
    else throw new ConfigError(`ROUTES: "${name}" is no operation of the service (nor "default")`);
  }
  const routes = {} as Record<OperationName, Route>;
  for (const name of MIGRATED_OPERATIONS) routes[name] = named.get(name) ?? fallback;
  const away = MIGRATED_OPERATIONS.find((name) => routes[name] !== 'local');
  if (away && legacyUrl === undefined) {
    throw new ConfigError(`ROUTES: ${away} is routed ${routes[away]}, which needs LEGACY_URL (the legacy service)`);
  }
  return routes;
}

/** Reads SHADOW_IGNORE: `Operation:/path/with/*`, or `*:/path`, separated by commas. */
export function readIgnoredPaths(raw: string | undefined): IgnoredPath[] {
  const ignored: IgnoredPath[] = [];
  for (const entry of (raw ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    const operation = colon === -1 ? '' : entry.slice(0, colon).trim();
    const path = colon === -1 ? '' : entry.slice(colon + 1).trim();
    if (!path.startsWith('/') || path.length < 2) {
      throw new ConfigError(`SHADOW_IGNORE: "${entry}" must be Operation:/path/to/field (or *:/path)`);
    }
    if (operation !== '*' && !isOperation(operation)) {
      throw new ConfigError(`SHADOW_IGNORE: "${operation}" is no operation of the service (nor "*")`);
    }
    ignored.push({ operation, steps: path.slice(1).split('/') });
  }
  return ignored;
}

/** The legacy service's URL as pages and commands show it: without a user or password it may carry. */
export function shownLegacyUrl(settings: MigrationSettings): string | undefined {
  if (settings.legacyUrl === undefined) return undefined;
  const url = new URL(settings.legacyUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

export function readMigrationSettings(env: Environment): MigrationSettings {
  const legacy = readAbsoluteUrl(env, 'LEGACY_URL');
  const legacyUrl = legacy ? legacy.href.replace(/\/+$/, '') : undefined;
  return {
    legacyUrl,
    routes: readRoutes(env.ROUTES, legacyUrl),
    legacyTimeoutMs: readInteger(env, 'LEGACY_TIMEOUT_MS', 10_000, 100, 300_000),
    legacyMaxBytes: readInteger(env, 'LEGACY_MAX_BYTES', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    legacyInFlightPerCaller: readInteger(env, 'LEGACY_IN_FLIGHT_PER_CALLER', 32, 1, 10_000),
    legacyInFlightPerAddress: readInteger(env, 'LEGACY_IN_FLIGHT_PER_ADDRESS', 8, 1, 10_000),
    noiseSample: readInteger(env, 'SHADOW_NOISE_SAMPLE', 20, 0, 1_000_000),
    ignored: readIgnoredPaths(env.SHADOW_IGNORE),
    maxPending: readInteger(env, 'SHADOW_MAX_PENDING', 200, 1, 100_000),
    answerBudgets: readAnswerBudgets(env),
    keepDays: readInteger(env, 'SHADOW_KEEP_DAYS', 14, 1, 3650),
    flushMs: readInteger(env, 'SHADOW_FLUSH_MS', 1_000, 20, 60_000),
    recordFile: env.RECORD_FILE || undefined,
    recordLoopback: readSwitch(env, 'RECORD_LOOPBACK', false),
    recordMaxBytes: readInteger(env, 'RECORD_MAX_BYTES', 256 * 1024 * 1024, 1024, 64 * 1024 * 1024 * 1024),
  };
}
