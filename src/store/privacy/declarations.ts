import type { Database } from '../schema';
import type { TableDeclarations } from './declaration-types';
import { PEOPLE_DECLARATIONS } from './people-declarations';
import { SCHOOL_DECLARATIONS } from './school-declarations';
import { SERVICE_DECLARATIONS } from './service-declarations';

/**
 * Every table of the store, with what it holds about people: a table added to `Database` without
 * its declaration, or a column without its line, does not compile; a test compares these with the
 * tables a migrated store really has, on both engines. Export and erasure read them.
 */
export const PERSONAL_DATA: TableDeclarations<keyof Database> = {
  ...SCHOOL_DECLARATIONS,
  ...PEOPLE_DECLARATIONS,
  ...SERVICE_DECLARATIONS,
};
