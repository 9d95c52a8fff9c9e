import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The pipeline and the bindings of the contract's calls (SOAP, HTTP GET/POST, JSON) are handed a
 * call as plain values (CallRequest) and answer with a Reply: none of them reads node's request or
 * writes its response, so that they can be driven by a value made anywhere and cannot touch the
 * connection. The server is the one place that does. The OneRoster provider (bindings/oneroster/)
 * is an HTTP surface of its own that streams its pages to the response, outside the pipeline.
 */
const CALL_FOLDERS = ['src/pipeline', 'src/bindings/soap', 'src/bindings/http', 'src/bindings/json'];

describe("the pipeline and the bindings hold neither node's request nor its response", () => {
  const files = CALL_FOLDERS.flatMap((folder) => sourcesUnder(join(ROOT, folder)));

  test('no file imports node:http or names its request or response', () => {
    expect(files.length).toBeGreaterThan(20);
    const holding = files.filter((file) =>
      /from 'node:http'|\bIncomingMessage\b|\bServerResponse\b/.test(readFileSync(file, 'utf8')),
    );
    expect(holding.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
