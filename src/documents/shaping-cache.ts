import type { Font, GlyphRun } from 'fontkit';

/**
 * Remembers how a font shapes each string, across documents. Shaping (OpenType substitution and
 * positioning, heavy for Arabic) is most of the cost of a report, each string is shaped several
 * times (to fit it in its box, to write it, to move past it), and most strings recur in every
 * report: labels, subject and assessment names, marks. The least recently used shapes are forgotten past
 * a bound, so memory stays flat however many reports are made.
 */

/** Enough for what every report shares (labels, names of subjects and types, marks, totals). */
const REMEMBERED_SHAPES = 1_000;

/** A run pdfkit may scale in place: fresh positions over the remembered glyphs. */
function copyOf(run: GlyphRun): GlyphRun {
  const positions = run.positions.map((position) => ({ ...position }));
  return {
    glyphs: run.glyphs,
    positions,
    // pdfkit scales the positions, then reads the width: it must follow them, as fontkit's does.
    get advanceWidth() {
      return positions.reduce((sum, position) => sum + position.xAdvance, 0);
    },
  } as unknown as GlyphRun;
}

/** The font with a remembering `layout`; everything else is the font's own. */
export function withShapingCache(font: Font): Font {
  const shapes = new Map<string, GlyphRun>();
  const layout = (text: string, features?: string[] | Record<string, boolean>): GlyphRun => {
    const key = `${JSON.stringify(features ?? null)}\u0000${text}`;
    let run = shapes.get(key);
    if (run) {
      shapes.delete(key);
    } else {
      run = font.layout(text, features);
      if (shapes.size >= REMEMBERED_SHAPES) shapes.delete(shapes.keys().next().value as string);
    }
    shapes.set(key, run);
    return copyOf(run);
  };
  return new Proxy(font, {
    // The font's own getters run against the font itself, never the proxy.
    get: (target, property) => (property === 'layout' ? layout : Reflect.get(target, property, target)),
  });
}
