import type { ImportConnection } from '../store/roster/import-connection';
import type { SchoolTableName } from '../store/roster/school-tables';
import type { ClassesRead } from './class-files';
import type { ImportContext } from './import-context';
import type { BundleFile } from './read-file';

/**
 * A bundle as the import reads it, one file after another in the registry's order
 * (collections/registry.ts, `IMPORT_ORDER`): what every file's reader shares, and what a file
 * leaves for the files read after it.
 */
export interface BundleReading {
  readonly context: ImportContext;
  readonly connection: ImportConnection;
  /** The highest id marks have ever had: results.csv's new marks are given ids above it. */
  readonly highestMarkId: number;
  /** --skip-invalid: results.csv's duplicates and id clashes are rows left out, not problems. */
  readonly skipInvalid: boolean;
  /** classes.csv's scheduled classes waiting for their class section, which enrollments.csv places. */
  classes: ClassesRead;
  /** A 1.2 bundle's roles.csv: each user's role and orgs, which its users.csv lacks; none in 1.1. */
  roles: ReadonlyMap<string, UserRoles> | undefined;
  /** A 1.2 bundle's scoreScales.csv, which lineItems and results name. */
  scales: ScoreScales;
  /** Per lineItem of a 1.2 bundle with `scoreScaleSourcedId`, the scale its results' text scores are on. */
  scaleOf: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** A student's enrolment record in a class, by their ids (the own files and results.csv name them). */
  readonly recordOf: (studentId: number, classId: number) => number | undefined;
}

/** A user's role (their primary role, else their first) and every org they have a role in (roles.csv). */
export interface UserRoles {
  readonly role: string;
  readonly orgs: readonly string[];
}

/** Score scales by sourcedId: each a text score's number (`A` -> 90). */
export type ScoreScales = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * How the import reads a OneRoster file (and gradeLevels.csv, read before the classes that name
 * its levels): the store's tables whose records its rows are, and its reader. The service's other
 * own files are read alike by own-files.ts from their modules' row readers.
 */
export interface ImportPart {
  readonly fills: readonly SchoolTableName[];
  /**
   * False for results.csv: it may hold millions of rows, so only what the store does not hold is
   * kept of each, staged with its mark. The accepted rows of the other OneRoster files are kept
   * whole for export to give back.
   */
  readonly keptWhole?: false;
  readonly read: (reading: BundleReading, file: BundleFile) => Promise<void>;
}
