import * as fontkit from 'fontkit';
import { readFileSync } from 'node:fs';
import { withShapingCache } from './shaping-cache';

/**
 * The typeface of every document: IBM Plex Sans Arabic (SIL Open Font License 1.1), as TrueType
 * files from the npm package @expo-google-fonts/ibm-plex-sans-arabic, so `npm install` brings it
 * and nothing is fetched at run time. One family covers Arabic (with its joining forms and
 * ligatures) and Latin, so a mixed line needs no font switching.
 *
 * Each file is parsed once per process and the parsed font is shared by every document: parsing
 * the font's layout tables again for each document would cost more than laying the document out.
 * Each document still embeds its own subset of the glyphs it uses.
 */
export type FontWeight = 'regular' | 'bold';

export const FONT_WEIGHTS: readonly FontWeight[] = ['regular', 'bold'];

const FONT_FILES: Record<FontWeight, string> = {
  regular: '@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf',
  bold: '@expo-google-fonts/ibm-plex-sans-arabic/600SemiBold/IBMPlexSansArabic_600SemiBold.ttf',
};

const parsed = new Map<FontWeight, fontkit.Font>();

export function parsedFont(weight: FontWeight): fontkit.Font {
  let font = parsed.get(weight);
  if (!font) {
    font = withShapingCache(fontkit.create(readFileSync(require.resolve(FONT_FILES[weight]))) as fontkit.Font);
    parsed.set(weight, font);
  }
  return font;
}
