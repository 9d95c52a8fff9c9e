import type { RestVersion } from '../roster/rest-records';
import type { RowReader } from './rostering-collections';

/**
 * Whether a version of the binding has a record for a row. 1.2 makes a result's score optional
 * (a result `not submitted` or `exempt` has none); 1.1 requires one, so its readers are not given
 * the results without a score the school keeps.
 */
export function inVersion(file: string, version: RestVersion, row: RowReader): boolean {
  return version !== '1.1' || file !== 'results' || row('score') !== '';
}
