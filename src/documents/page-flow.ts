import type { PdfCanvas } from './pdf-canvas';
import { FOOTER_HEIGHT, MARGIN } from './report-style';

/** The vertical cursor of a document being laid out: where the next block goes, and page breaks. */
export class PageFlow {
  y = MARGIN;

  constructor(readonly canvas: PdfCanvas) {}

  get left(): number {
    return MARGIN;
  }

  get width(): number {
    return this.canvas.width - 2 * MARGIN;
  }

  /** Moves to a new page unless `height` more points fit above the footer; tells whether it did. */
  makeRoom(height: number): boolean {
    if (this.y + height <= this.canvas.height - FOOTER_HEIGHT) return false;
    this.canvas.addPage();
    this.y = MARGIN;
    return true;
  }
}
