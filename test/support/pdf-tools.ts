import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Reads produced PDFs with Debian's poppler-utils, as a person's tools would: the text
 * (pdftotext), the words with their places on the page (pdftotext -bbox), the page count
 * (pdfinfo) and a page as a picture (pdftoppm).
 */
export const PDF_TOOLS = ['pdftotext', 'pdftoppm', 'pdfinfo'];

function withPdfFile<T>(pdf: Buffer, use: (path: string, directory: string) => T): T {
  const directory = mkdtempSync(join(tmpdir(), 'school-pdf-'));
  try {
    const path = join(directory, 'document.pdf');
    writeFileSync(path, pdf);
    return use(path, directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** poppler marks the direction of what it reorders with Unicode controls; they carry no letters. */
const DIRECTION_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text with the physical layout kept: one table row per line, left to right. */
export function pdfText(pdf: Buffer): string {
  return withPdfFile(pdf, (path) =>
    execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }),
  ).replace(DIRECTION_CONTROLS, '');
}

/** The cells of the first line of pdfText that holds `label`: -layout keeps columns apart by two or more spaces. */
export function tableRow(text: string, label: string): string[] {
  const line = text.split('\n').find((candidate) => candidate.includes(label));
  if (line === undefined) throw new Error(`no line with ${label} in:\n${text}`);
  return line.trim().split(/\s{2,}/);
}

export interface PlacedWord {
  /** The word's characters in the order of its glyphs on the page, left to right. */
  readonly text: string;
  readonly xMin: number;
  readonly yMin: number;
  readonly page: number;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Every word with where it stands, as pdftotext -bbox reports it: glyph order, no reordering. */
export function pdfWords(pdf: Buffer): PlacedWord[] {
  const xhtml = withPdfFile(pdf, (path) =>
    execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }),
  );
  return xhtml
    .split('<page ')
    .slice(1)
    .flatMap((page, index) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map(
        (match) => ({
          text: decodeEntities(match[3]),
          xMin: Number(match[1]),
          yMin: Number(match[2]),
          page: index + 1,
        }),
      ),
    );
}

export function pdfPageCount(pdf: Buffer): number {
  const info = withPdfFile(pdf, (path) => execFileSync('pdfinfo', [path], { encoding: 'utf8' }));
  const pages = /^Pages:\s+(\d+)$/m.exec(info);
  if (!pages) throw new Error(`pdfinfo reported no page count:\n${info}`);
  return Number(pages[1]);
}

/** Page 1 rendered to PNG; pdftoppm fails (and so does this) on a PDF it cannot draw. */
export function firstPageAsPng(pdf: Buffer, dotsPerInch = 50): Buffer {
  return withPdfFile(pdf, (path, directory) => {
    execFileSync(
      'pdftoppm',
      ['-png', '-r', String(dotsPerInch), '-f', '1', '-l', '1', '-singlefile', path, join(directory, 'page')],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return readFileSync(join(directory, 'page.png'));
  });
}

/** Width and height from a PNG's header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A key that finds an Arabic phrase in poppler's output. poppler restores the reading order of
 * right-to-left words, but reverses the letters inside each ligature glyph (لا comes back as ال),
 * and -bbox gives each word's letters in glyph order. So an Arabic word is compared by its letters
 * in any order, and a phrase by its words in order; Latin words and numbers compare exactly.
 */
export function readingKey(text: string): string {
  return text
    .replace(DIRECTION_CONTROLS, '')
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => (/[\u0600-\u06ff]/.test(word) ? [...word].sort().join('') : word))
    .join(' ');
}
