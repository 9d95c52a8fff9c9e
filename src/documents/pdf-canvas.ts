import PDFDocument from 'pdfkit';
import { hasRightToLeftLetter, visualRuns, type Direction, type VisualRun } from './bidi-text';
import { FONT_WEIGHTS, parsedFont, type FontWeight } from './fonts';

/**
 * The drawing surface of the documents: A4 pages, single-line bidirectional text, rules and
 * shaded boxes. It is the only place that knows pdfkit; layouts speak in points and strings.
 */

export interface TextStyle {
  readonly size: number;
  readonly direction: Direction;
  readonly align: 'left' | 'right' | 'center';
  readonly weight?: FontWeight;
  readonly color?: string;
}

export interface DocumentInfo {
  readonly title: string;
  readonly author: string;
  /** The date of issue, YYYY-MM-DD: also the PDF's creation date, so equal inputs give equal bytes. */
  readonly issuedOn: string;
}

/** Text never shrinks below this to fit its box; past it, the box is simply too small. */
const SMALLEST_TEXT_SIZE = 5;

/**
 * pdfkit shapes a string with fontkit, which reverses the glyphs of a string it finds to be in an
 * RTL script: a right-to-left run with Arabic letters is handed over in logical order and comes
 * back in display order. A right-to-left run of neutral characters alone (a parenthesis, a dash)
 * is not reversed by fontkit, so it is reversed here.
 */
function shapingInput(run: VisualRun): string {
  return run.rightToLeft && !hasRightToLeftLetter(run.text) ? [...run.text].reverse().join('') : run.text;
}

/**
 * Passing `features` (even none beyond the font's defaults) makes pdfkit shape a run as one
 * string; without it pdfkit shapes word by word and puts the words in logical order, which
 * scrambles a right-to-left run of several words.
 */
const WHOLE_RUN = { features: [] as PDFKit.Mixins.OpenTypeFeatures[] };

export class PdfCanvas {
  private readonly document: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly finished: Promise<Buffer>;

  constructor(info: DocumentInfo) {
    const issued = new Date(`${info.issuedOn}T00:00:00Z`);
    this.document = new PDFDocument({
      size: 'A4',
      margin: 0,
      bufferPages: true,
      displayTitle: true,
      lang: 'ar',
      info: { Title: info.title, Author: info.author, Creator: info.author, CreationDate: issued, ModDate: issued },
    });
    // pdfkit 0.20 takes a parsed fontkit font as a source (its type declarations predate that).
    for (const weight of FONT_WEIGHTS)
      this.document.registerFont(weight, parsedFont(weight) as unknown as PDFKit.Mixins.PDFFontSource);
    this.finished = new Promise((resolve, reject) => {
      this.document.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.document.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.document.on('error', reject);
    });
  }

  get width(): number {
    return this.document.page.width;
  }

  get height(): number {
    return this.document.page.height;
  }

  /**
   * One line of text on the baseline y, inside the box from x to x + width, shrunk to fit it.
   * Glyphs stand in display order and map back to their letters, so text extraction that does
   * bidi (poppler's, a viewer's) reads the words in order. No ActualText is attached: poppler
   * reverses an RTL ActualText once more, as if it were in display order.
   */
  text(value: string, x: number, baseline: number, width: number, style: TextStyle): void {
    const runs = visualRuns(value, style.direction);
    if (runs.length === 0) return;
    const document = this.document.font(style.weight ?? 'regular').fontSize(style.size);
    const naturalWidths = runs.map((run) => document.widthOfString(run.text, WHOLE_RUN));
    const natural = naturalWidths.reduce((sum, runWidth) => sum + runWidth, 0);
    const size = natural > width ? Math.max(SMALLEST_TEXT_SIZE, (style.size * width) / natural) : style.size;
    document.fontSize(size).fillColor(style.color ?? '#000000');
    // Widths scale with the size, so the runs are measured once.
    const widths = naturalWidths.map((runWidth) => (runWidth * size) / style.size);
    const total = (natural * size) / style.size;
    let cursor = style.align === 'left' ? x : style.align === 'right' ? x + width - total : x + (width - total) / 2;
    runs.forEach((run, index) => {
      document.text(shapingInput(run), cursor, baseline, { ...WHOLE_RUN, lineBreak: false, baseline: 'alphabetic' });
      cursor += widths[index];
    });
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, thickness = 0.5): void {
    this.document.save().lineWidth(thickness).strokeColor(color).moveTo(x1, y1).lineTo(x2, y2).stroke().restore();
  }

  box(x: number, y: number, width: number, height: number, fill: string): void {
    this.document.save().rect(x, y, width, height).fill(fill).restore();
  }

  addPage(): void {
    this.document.addPage();
  }

  /** Runs the drawing on every page once the content is laid out: page numbers need the count. */
  forEachPage(draw: (pageNumber: number, pageCount: number) => void): void {
    const { start, count } = this.document.bufferedPageRange();
    for (let index = start; index < start + count; index += 1) {
      this.document.switchToPage(index);
      draw(index - start + 1, count);
    }
  }

  finish(): Promise<Buffer> {
    this.document.end();
    return this.finished;
  }
}
