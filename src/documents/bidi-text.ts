import bidiFactory from 'bidi-js';

/**
 * Orders one line of mixed Arabic and Latin text for display with the Unicode Bidirectional
 * Algorithm (UAX #9, by bidi-js): which stretches run right to left, and in which order the
 * stretches stand on the page. A PDF has no bidi of its own: glyphs are placed left to right as
 * written, so the order must be settled before drawing.
 */

export type Direction = 'ltr' | 'rtl';

/** A stretch of one direction. `text` is in logical (reading) order, mirrored where RTL needs it. */
export interface VisualRun {
  readonly text: string;
  readonly rightToLeft: boolean;
}

const bidi = bidiFactory();

/**
 * The runs of a line from left to right as they appear on the page. The paragraph direction is
 * the line's own (Arabic text right to left, English left to right), so that neutral characters
 * at the edges, such as a trailing colon or parenthesis, land where a reader of that language
 * expects them.
 */
export function visualRuns(line: string, direction: Direction): VisualRun[] {
  if (line === '') return [];
  const embedding = bidi.getEmbeddingLevels(line, direction);
  const mirrored = bidi.getMirroredCharactersMap(line, embedding.levels);
  const order = bidi.getReorderedIndices(line, embedding);
  const runs: VisualRun[] = [];
  let start = 0;
  while (start < order.length) {
    const level = embedding.levels[order[start]];
    let end = start + 1;
    while (end < order.length && embedding.levels[order[end]] === level) end += 1;
    // A right-to-left run stands reversed in `order`; its text is kept in logical order because
    // Arabic letters take their joined forms from their neighbours in reading order.
    const indices = order.slice(start, end).sort((left, right) => left - right);
    runs.push({
      text: indices.map((index) => mirrored.get(index) ?? line[index]).join(''),
      rightToLeft: level % 2 === 1,
    });
    start = end;
  }
  return runs;
}

/** Whether the text holds a letter of a right-to-left script (Arabic, Hebrew, ...). */
export function hasRightToLeftLetter(text: string): boolean {
  for (const character of text) {
    const type = bidi.getBidiCharTypeName(character);
    if (type === 'R' || type === 'AL') return true;
  }
  return false;
}
