import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Every relative link of the README and docs/ leads somewhere: to a file that exists and, when it
 * names a heading (`page.md#heading`), to a heading of that page, as GitHub makes its anchors.
 * Sections move between pages; a link to where one was is found here, not by a reader.
 */

const ROOT = resolve(__dirname, '..', '..');
const PAGES = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((name) => join(ROOT, 'docs', name))]
  .filter((path) => path.endsWith('.md'))
  .sort();

/** Markdown without its fenced code blocks, where brackets and hashes are code, not links or headings. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated heading's gets -1, -2, ... as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(heading);
    const times = seen.get(anchor);
    seen.set(anchor, (times ?? -1) + 1);
    anchors.add(times === undefined ? anchor : `${anchor}-${times + 1}`);
  }
  return anchors;
}

function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [path, anchor] = target.split('#');
    const file = path === '' ? page : resolve(dirname(page), path);
    const where = `${relative(ROOT, page)}: ${target}`;
    if (!existsSync(file)) broken.push(`${where} (no such file)`);
    else if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('the links of the README and docs/', () => {
  test("make a heading's anchor as GitHub does", () => {
    expect(anchorOf("Where a large school's sync spends its time (`npm run bench:sync`, 2026-11-26)")).toBe(
      'where-a-large-schools-sync-spends-its-time-npm-run-benchsync-2026-11-26',
    );
    expect(anchorOf('HTTP GET/POST and JSON')).toBe('http-getpost-and-json');
    expect([...anchorsOf('# A\n## Notes\n```\n# not a heading\n```\n### Notes\n')]).toEqual(['a', 'notes', 'notes-1']);
  });

  test.each(PAGES.map((page) => [relative(ROOT, page), page]))(
    '%s: every relative link leads to a file and heading',
    (_name, page) => {
      expect(brokenLinks(page)).toEqual([]);
    },
  );
});
