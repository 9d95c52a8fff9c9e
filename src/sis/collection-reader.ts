import { counted } from '../lib/counted';
import type { SisSettings } from '../config/sis-settings';
import type { Collection } from './collections';
import type { ProviderClient, ProviderPage } from './provider-client';
import { SyncFailure } from './sync-failure';

/**
 * Reads one collection page by page, by `limit` and `offset`, in order. When the first answer
 * says how many records there are (`X-Total-Count`), the pages are the offsets below it, a few
 * asked for at once so that the provider makes the next while this one is written (the step is
 * the first page's size: a provider that caps `limit` lower is followed). Otherwise the next page
 * is the one `Link: <…>; rel="next"` names (on the provider's own host only), else the next offset
 * while pages come full, one page in flight. `since` asks only for records changed after it (a
 * delta): `filter=dateLastModified>'…'`.
 *
 * Each page's answer is handed to `take`, which writes its records where they go and says how many
 * it had (the paging needs the count); the reader yields those counts, in order.
 */
const PAGES_IN_FLIGHT = 4;

/** Writes one page's records; resolves to how many records the page had. */
export type PageTaker = (text: string, url: string) => Promise<number>;

export async function* collectionPages(
  client: ProviderClient,
  settings: SisSettings,
  collection: Collection,
  since: string | undefined,
  take: PageTaker,
): AsyncGenerator<number> {
  const base = (collection.service === 'rostering' ? settings.url : settings.gradebookUrl) as string;
  const first = new URL(`${base}/${collection.name}`);
  first.searchParams.set('limit', String(settings.pageSize));
  first.searchParams.set('offset', '0');
  if (since) first.searchParams.set('filter', `dateLastModified>'${since}'`);
  const page = await client.getPage(first.href);
  const count = await take(page.text, first.href);
  const total = Number(page.headers.get('x-total-count') ?? Number.NaN);
  if (count === 0) return;
  yield count;
  if (Number.isFinite(total)) {
    if (total > settings.maxRecords) {
      throw new SyncFailure(
        `${collection.name}: the provider has ${counted(total, 'record')}, more than SIS_MAX_RECORDS`,
      );
    }
    yield* byOffsets(client, first, count, total, take);
  } else {
    yield* byLinks(client, settings, collection, first, page, count, take);
  }
}

/** A page in flight whose failure is raised when it is awaited, not as an unhandled rejection meanwhile. */
function asked(client: ProviderClient, url: string): Promise<ProviderPage> {
  const page = client.getPage(url);
  page.catch(() => undefined);
  return page;
}

async function* byOffsets(
  client: ProviderClient,
  first: URL,
  step: number,
  total: number,
  take: PageTaker,
): AsyncGenerator<number> {
  const urlAt = (offset: number) => {
    const url = new URL(first.href);
    url.searchParams.set('offset', String(offset));
    return url.href;
  };
  const waiting: Array<{ url: string; page: Promise<ProviderPage> }> = [];
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
    const page = await next.page;
    ask();
    const count = await take(page.text, next.url);
    // Fewer records than the count said (some were deleted meanwhile): the rest is read still.
    if (count > 0) yield count;
  }
}

async function* byLinks(
  client: ProviderClient,
  settings: SisSettings,
  collection: Collection,
  first: URL,
  firstPage: ProviderPage,
  firstCount: number,
  take: PageTaker,
): AsyncGenerator<number> {
  const seen = new Set<string>([first.href]);
  let offset = firstCount;
  const unseen = (url: string | undefined) => {
    if (url !== undefined && seen.has(url)) {
      throw new SyncFailure(`${collection.name}: the provider's next page is a page already read`);
    }
    return url;
  };
  let url = unseen(
    linkedPage(firstPage.headers, first, first.href) ?? offsetPage(first, offset, firstCount, settings.pageSize),
  );
  let arriving = url === undefined ? undefined : asked(client, url);
  while (arriving !== undefined && url !== undefined) {
    const page = await arriving;
    const current = url;
    seen.add(current);
    // A Link header names the next page before this one is written: asked for at once, so that
    // the provider makes it meanwhile. Without one, the next offset waits for this page's count.
    url = unseen(linkedPage(page.headers, first, current));
    arriving = url === undefined ? undefined : asked(client, url);
    const count = await take(page.text, current);
    offset += count;
    if (arriving === undefined) {
      url = unseen(offsetPage(first, offset, count, settings.pageSize));
      arriving = url === undefined ? undefined : asked(client, url);
    }
    if (count > 0) yield count;
  }
}

/** The page the Link header names as next, on the provider's own host. */
function linkedPage(headers: Headers, first: URL, current: string): string | undefined {
  const link = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(headers.get('link') ?? '');
  if (!link) return undefined;
  const next = new URL(link[1], current);
  if (next.origin !== first.origin)
    throw new SyncFailure(`the provider's next page is on another host: ${next.origin}`);
  return next.href;
}

/** Without a Link header: the next offset while pages come full. */
function offsetPage(first: URL, offset: number, count: number, pageSize: number): string | undefined {
  if (count < pageSize || count === 0) return undefined;
  const next = new URL(first.href);
  next.searchParams.set('offset', String(offset));
  return next.href;
}
