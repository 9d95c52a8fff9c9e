import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { writePage } from '../../src/bindings/oneroster/page-writer';
import { pageOf, type RecordScan } from '../../src/provider/record-pages';

/**
 * A page of 10,000 records leaves in pieces of a few hundred, waiting for the client between
 * them, and reads back as the page; its Link names the next page.
 */
class SlowResponse extends EventEmitter {
  readonly writes: string[] = [];
  headers: Record<string, string | number> = {};
  destroyed = false;
  ended = false;
  writeHead(_status: number, headers: Record<string, string | number>) {
    this.headers = headers;
  }
  write(text: string): boolean {
    this.writes.push(text);
    // Behind after every piece: the writer must wait for 'drain' before the next.
    setImmediate(() => this.emit('drain'));
    return false;
  }
  end(text: string) {
    this.writes.push(text);
    this.ended = true;
  }
}

test('a 10,000-record page is written in pieces, each after the client caught up', async () => {
  const records = Array.from({ length: 12_000 }, (_, index) => ({ sourcedId: `u${index}`, givenName: 'x' }));
  const scan: RecordScan = async (visit) => {
    for (const record of records) if (!(await visit(() => record))) break;
    return ['sourcedId', 'givenName'];
  };
  const selected = await pageOf(scan, new URLSearchParams('limit=10000&offset=1000'), () => ({}));
  if ('codeMinor' in selected) throw new Error(selected.problem);
  const response = new SlowResponse();
  const url = new URL('http://school.example/ims/oneroster/rostering/v1p2/users?limit=10000&offset=1000');
  await writePage(response as unknown as ServerResponse, 'users', selected.page, selected.query, url);
  expect(response.ended).toBe(true);
  expect(response.writes.length).toBeGreaterThanOrEqual(50);
  expect(Math.max(...response.writes.map((piece) => piece.length))).toBeLessThan(20_000);
  const page = JSON.parse(response.writes.join('')).users as Array<{ sourcedId: string }>;
  expect(page.map((record) => record.sourcedId)).toEqual(records.slice(1000, 11_000).map((record) => record.sourcedId));
  expect(response.headers['X-Total-Count']).toBe(12_000);
  expect(response.headers.Link).toContain('offset=11000>; rel="next"');
});
