import type { BilingualName } from '../store/queries/report-content';
import type { PdfCanvas, TextStyle } from './pdf-canvas';

/** The space kept between the English half of a line and the Arabic half. */
const HALF_GAP = 8;

/**
 * The document's bilingual convention: English from the left edge of a box, Arabic from its right
 * edge, on the same baseline, each in its own direction.
 */
export function drawBilingual(
  canvas: PdfCanvas,
  text: BilingualName,
  x: number,
  baseline: number,
  width: number,
  style: Omit<TextStyle, 'direction' | 'align'>,
): void {
  const half = width / 2 - HALF_GAP;
  canvas.text(text.nameEn, x, baseline, half, { ...style, direction: 'ltr', align: 'left' });
  canvas.text(text.nameAr, x + width - half, baseline, half, { ...style, direction: 'rtl', align: 'right' });
}
