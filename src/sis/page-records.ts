import { SyncFailure } from './sync-failure';

/**
 * The records of one page of a collection: the answer parsed as JSON, its list under the
 * collection's name (`{"users": [...]}`). Messages name the path, never the query or a credential.
 */
export function pageRecords(text: string, collection: string, url: string): unknown[] {
  const where = new URL(url).pathname;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SyncFailure(`${where}: the answer is not JSON`);
  }
  const records = body && typeof body === 'object' ? (body as Record<string, unknown>)[collection] : undefined;
  if (!Array.isArray(records)) throw new SyncFailure(`${where}: the answer has no "${collection}" list`);
  return records;
}
