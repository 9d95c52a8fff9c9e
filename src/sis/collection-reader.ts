import { counted } from '../lib/counted';
import type { SisSettings } from '../config/sis-settings';
import type { Collection } from './collections';
import type { JsonPage, ProviderClient } from './provider-client';
import { SyncFailure } from './sync-failure';

/**
 * Reads one collection page by page, by `limit` and `offset`, in order. When the first answer
 * says how many records there are (`X-Total-Count`), the pages are the offsets below it, a few
 * asked for at once so that the provider makes the next while this one is written (the step is
 * the first page's size: a provider that caps `limit` lower is followed). Otherwise the next page
 * is the one `Link: <…>; rel="next"` names (on the provider's own host only), else the next offset
 * while pages come full, one page in flight. `since` asks only for records changed after it (a
 * delta): `filter=dateLastModified>'…'`.
 */
const PAGES_IN_FLIGHT = 4;

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
  const page = await client.getJson(first.href);
  const records = recordsOf(page, collection, first.href);
  const total = Number(page.headers.get('x-total-count') ?? Number.NaN);
  if (records.length === 0) return;
  yield records;
  if (Number.isFinite(total)) {
    if (total > settings.maxRecords) {
      throw new SyncFailure(
        `${collection.name}: the provider has ${counted(total, 'record')}, more than SIS_MAX_RECORDS`,
      );
    }
    yield* byOffsets(client, collection, first, records.length, total);
  } else {
    yield* byLinks(client, settings, collection, first, page, records.length);
  }
}

function recordsOf(page: JsonPage, collection: Collection, url: string): unknown[] {
  const body = page.body as Record<string, unknown> | null;
  const records = body && typeof body === 'object' ? body[collection.name] : undefined;
  if (!Array.isArray(records)) {
    throw new SyncFailure(`${new URL(url).pathname}: the answer has no "${collection.name}" list`);
  }
  return records;
}

/** A page in flight whose failure is raised when it is awaited, not as an unhandled rejection meanwhile. */
function asked(client: ProviderClient, url: string): Promise<JsonPage> {
  const page = client.getJson(url);
  page.catch(() => undefined);
  return page;
}

async function* byOffsets(
  client: ProviderClient,
  collection: Collection,
  first: URL,
  step: number,
  total: number,
): AsyncGenerator<unknown[]> {
  const urlAt = (offset: number) => {
    const url = new URL(first.href);
    url.searchParams.set('offset', String(offset));
    return url.href;
  };
  const waiting: Array<{ url: string; page: Promise<JsonPage> }> = [];
  let offset = step;
  const ask = () => {
    while (waiting.length < PAGES_IN_FLIGHT && offset < total) {
      const url = urlAt(offset);
      waiting.push({ url, page: asked(client, url) });
      offset += step;
    }
  };
  ask();
  for (let next = waiting.shift(); next; next = waiting.shift()) {
    const records = recordsOf(await next.page, collection, next.url);
    ask();
    // Fewer records than the count said (some were deleted meanwhile): the rest is read still.
    if (records.length > 0) yield records;
  }
}

async function* byLinks(
  client: ProviderClient,
  settings: SisSettings,
  collection: Collection,
  first: URL,
  firstPage: JsonPage,
  firstCount: number,
): AsyncGenerator<unknown[]> {
  const seen = new Set<string>([first.href]);
  let offset = firstCount;
  let url = nextPage(firstPage.headers, first, first.href, offset, firstCount, settings.pageSize);
  let arriving = url === undefined ? undefined : asked(client, url);
  while (arriving !== undefined && url !== undefined) {
    const page = await arriving;
    const records = recordsOf(page, collection, url);
    seen.add(url);
    offset += records.length;
    url = nextPage(page.headers, first, url, offset, records.length, settings.pageSize);
    if (url !== undefined && seen.has(url)) {
      throw new SyncFailure(`${collection.name}: the provider's next page is a page already read`);
    }
    // The next page is asked for before this one is written, so that the provider makes it meanwhile.
    arriving = url === undefined ? undefined : asked(client, url);
    if (records.length > 0) yield records;
  }
}

/** The page after `current`: the Link header's next, else the next offset while pages come full. */
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
  if (count < pageSize || count === 0) return undefined;
  const next = new URL(first.href);
  next.searchParams.set('offset', String(offset));
  return next.href;
}
