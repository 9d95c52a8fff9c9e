import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import type { RecordPage } from '../../provider/record-pages';
import type { RecordQuery } from '../../provider/record-query';
import { withFields } from '../../provider/record-query';
import { recordOf } from '../../telemetry/request-record';

/** Records serialised per write: a 10,000-record page goes out in pieces, never as one string. */
const RECORDS_PER_WRITE = 200;

/** The Link header of a page (RFC 8288): first, last, and next and prev where there are such pages. */
function linkHeader(url: URL, total: number, { limit, offset }: RecordQuery): string {
  const at = (start: number) => {
    const page = new URL(url.href);
    page.searchParams.set('limit', String(limit));
    page.searchParams.set('offset', String(start));
    return page.href;
  };
  const lastStart = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  const links = [`<${at(0)}>; rel="first"`, `<${at(lastStart)}>; rel="last"`];
  if (offset + limit < total) links.push(`<${at(offset + limit)}>; rel="next"`);
  if (offset > 0) links.push(`<${at(Math.max(0, offset - limit))}>; rel="prev"`);
  return links.join(', ');
}

function written(response: ServerResponse, text: string): Promise<void> | undefined {
  if (response.write(text, 'utf8')) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Writes one page of a collection: `{"<key>": [...]}` with X-Total-Count and Link, streamed a few
 * hundred records at a time as the page's records come and waiting while the client is behind, so
 * that memory stays flat however large the page. `beforeEnd` runs once every record is written.
 */
export async function writePage(
  response: ServerResponse,
  key: string,
  page: RecordPage,
  query: RecordQuery,
  url: URL,
  beforeEnd?: () => Promise<void>,
): Promise<void> {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Total-Count': page.total,
    Link: linkHeader(url, page.total, query),
  };
  const requestId = recordOf(response)?.id;
  if (requestId) headers['X-Request-Id'] = requestId;
  response.writeHead(200, headers);
  let pending = written(response, `{${JSON.stringify(key)}:[`);
  // Node holds a response's first writes until the current turn ends, and a page's first records
  // may be made in one turn (read from the store, its statements synchronous on SQLite): the
  // headers and the opening go out now, so that the client has the total before the records.
  await nextTurn();
  let pieces: string[] = [];
  let first = true;
  const flush = async () => {
    if (pending) await pending;
    pending = written(response, `${first ? '' : ','}${pieces.join(',')}`);
    first = false;
    pieces = [];
  };
  await page.records(async (record) => {
    pieces.push(JSON.stringify(withFields(record, query.fields)));
    if (pieces.length >= RECORDS_PER_WRITE) await flush();
    return !response.destroyed;
  });
  if (response.destroyed) return;
  if (pieces.length > 0) await flush();
  if (pending) await pending;
  // The read's audit entry is in the journal before the answer ends.
  if (beforeEnd) await beforeEnd();
  response.end(']}');
}
