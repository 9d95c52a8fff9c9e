import { SchoolEntryError } from './school-entry-error';
import { checkSchoolSettings, type SchoolSettings } from './school-settings';

export { SchoolEntryError };

/**
 * A school of a district deployment as the operator registers it: its OneRoster org sourcedId
 * (which also names its store's folder), the path prefix its endpoints answer under, and optionally
 * the host name it is known by and a name for people. Every part is checked here, once, whether it
 * comes from the command line or from the deployment's list of schools on disk.
 */
export interface SchoolEntry {
  readonly sourcedId: string;
  /** "/slug": the school's endpoints answer at /slug/<Endpoint>.asmx. */
  readonly path: string;
  readonly host?: string;
  readonly name?: string;
  /** Its own SIS, legacy and notification settings (`schools set`), over the deployment's. */
  readonly settings?: SchoolSettings;
}

/** Letters, digits, "_", "-" and inner dots: a folder name that cannot climb out of DATA_DIR. */
const SOURCED_ID = /^[A-Za-z0-9_-](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9_-])?$/;
/** One path segment in lower case, without dots: it cannot be an endpoint (X.asmx) nor /status.json. */
const SCHOOL_PATH = /^\/[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const NAME_LENGTH = 200;
/** Paths the service answers itself at its root, now or for the OneRoster provider: no school may take them. */
const RESERVED_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/status', '/ims', '/oauth', '/schools']);

export function checkSourcedId(sourcedId: string): string {
  if (!SOURCED_ID.test(sourcedId) || sourcedId.includes('..')) {
    throw new SchoolEntryError(
      `a school's sourcedId is 1 to 64 letters, digits, "_", "-" or inner single dots, got "${sourcedId.slice(0, 80)}"`,
    );
  }
  return sourcedId;
}

export function checkSchoolPath(path: string): string {
  if (!SCHOOL_PATH.test(path)) {
    throw new SchoolEntryError(
      `a school's path is "/" and 1 to 40 lower-case letters, digits or inner "-", got "${path.slice(0, 80)}"`,
    );
  }
  if (RESERVED_PATHS.has(path)) throw new SchoolEntryError(`the path ${path} is the service's own`);
  return path;
}

export function checkHost(host: string): string {
  if (!HOST_NAME.test(host))
    throw new SchoolEntryError(`a school's host is a lower-case host name, got "${host.slice(0, 80)}"`);
  return host;
}

export function checkName(name: string): string {
  // Control characters would end a line of `schools list` or of a log.
  if (name.trim() === '' || name.length > NAME_LENGTH || /\p{Cc}/u.test(name)) {
    throw new SchoolEntryError(`a school's name is 1 to ${NAME_LENGTH} characters without control characters`);
  }
  return name;
}

/** A checked entry from untrusted parts (the command line, or the list file read back). */
export function schoolEntry(parts: { readonly [part in keyof SchoolEntry]?: unknown }): SchoolEntry {
  const text = (value: unknown, what: string) => {
    if (typeof value !== 'string') throw new SchoolEntryError(`a school's ${what} must be text`);
    return value;
  };
  return {
    sourcedId: checkSourcedId(text(parts.sourcedId, 'sourcedId')),
    path: checkSchoolPath(text(parts.path, 'path')),
    ...(parts.host === undefined ? {} : { host: checkHost(text(parts.host, 'host')) }),
    ...(parts.name === undefined ? {} : { name: checkName(text(parts.name, 'name')) }),
    ...(parts.settings === undefined ? {} : { settings: checkSchoolSettings(parts.settings) }),
  };
}

/** A school as the operator's commands name it: sourcedId, name, path and host. */
export function describeSchool(school: SchoolEntry): string {
  const host = school.host ? `, host ${school.host}` : '';
  const name = school.name ? ` "${school.name}"` : '';
  return `${school.sourcedId}${name} at ${school.path}${host}`;
}
