import type { SisSettings } from '../config/sis-settings';
import type { Collection } from './collections';
import type { JsonPage, ProviderClient } from './provider-client';
import { SyncFailure } from './sync-failure';

/**
 * Reads one collection page by page, by `limit` and `offset`. The next page is the one the
 * answer's `Link: <…>; rel="next"` names (on the provider's own host only), else the next offset
 * while it is below `X-Total-Count`, else the next offset while pages come full. `since` asks
 * only for records changed after it (a delta): `filter=dateLastModified>'…'`.
 */
export async function* collectionPages(
  client: ProviderClient,
  settings: SisSettings,
  collection: Collection,
  since: string | undefined,
): AsyncGenerator<unknown[]> {
  const base = (collection.service === 'rostering' ? settings.url : settings.gradebookUrl) as string;
  const first = new URL(`${base}/${collection.name}`);
  first.searchParams.set('limit', String(settings.pageSize));
  first.searchParams.set('offset', '0');
  if (since) first.searchParams.set('filter', `dateLastModified>'${since}'`);
  const seen = new Set<string>();
  let url: string | undefined = first.href;
  let offset = 0;
  // The next page is asked for as soon as this one arrives, so that the provider makes it while
  // this one is turned into rows and written: one page in flight, the order kept.
  let arriving: Promise<JsonPage> | undefined = client.getJson(url);
  while (arriving !== undefined && url !== undefined) {
    const page: JsonPage = await arriving;
    const body = page.body as Record<string, unknown> | null;
    const records = body && typeof body === 'object' ? body[collection.name] : undefined;
    if (!Array.isArray(records)) {
      throw new SyncFailure(`${new URL(url).pathname}: the answer has no "${collection.name}" list`);
    }
    seen.add(url);
    offset += records.length;
    url = nextPage(page.headers, first, url, offset, records.length, settings.pageSize);
    if (url !== undefined && seen.has(url)) {
      throw new SyncFailure(`${collection.name}: the provider's next page is a page already read`);
    }
    arriving = url === undefined ? undefined : client.getJson(url);
    // A failure of the page in flight is raised when it is awaited, not as an unhandled rejection meanwhile.
    arriving?.catch(() => undefined);
    if (records.length > 0) yield records;
  }
}

function nextPage(
  headers: Headers,
  first: URL,
  current: string,
  offset: number,
  count: number,
  pageSize: number,
): string | undefined {
  const link = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(headers.get('link') ?? '');
  if (link) {
    const next = new URL(link[1], current);
    if (next.origin !== first.origin)
      throw new SyncFailure(`the provider's next page is on another host: ${next.origin}`);
    return next.href;
  }
  if (count === 0) return undefined;
  const total = Number(headers.get('x-total-count') ?? Number.NaN);
  const more = Number.isFinite(total) ? offset < total : count >= pageSize;
  if (!more) return undefined;
  const next = new URL(first.href);
  next.searchParams.set('offset', String(offset));
  return next.href;
}
