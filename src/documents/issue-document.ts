import { createHash } from 'node:crypto';
import { findDocument, storeDocument, type StoredDocument } from '../store/queries/generated-documents';
import { reportContent, type ReportSubject } from '../store/queries/report-content';
import type { Session } from '../store/session';
import type { DocumentKind } from './document-kinds';

/**
 * Issues a report card or term book: the stored file when nothing it shows has changed, else a
 * newly rendered one, stored with its content hash.
 *
 * "Nothing changed" is decided by a fingerprint of everything the document shows (school,
 * student, class, term and year, every mark, attendance, note counts), its kind and the layout
 * version, but not its date of issue. The date of issue is the day the document was first
 * rendered with this content: asking again later returns the same file, bytes and date, so a
 * document already handed out stays valid and verifiable by its hash; a change of a mark (or of
 * anything else shown) gives a new document dated the day of that request. Earlier versions stay
 * stored as a record of what was issued.
 */

/** Raised whenever the layout changes, so documents drawn by an older layout are issued anew. */
const LAYOUT_VERSION = 1;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export async function issueDocument(
  session: Session,
  kind: DocumentKind,
  subject: ReportSubject,
  today: string,
): Promise<StoredDocument | undefined> {
  const content = await reportContent(session, subject);
  if (!content) return undefined;
  const inputFingerprint = sha256(JSON.stringify([LAYOUT_VERSION, kind, content]));
  const stored = await findDocument(session, inputFingerprint);
  if (stored) return stored;
  // Loaded on the first rendering, not at start: pdfkit, fontkit and the font take about 20 MB,
  // which a process that never renders (or only hands out stored documents) does without.
  const { renderReport } = await import('./render-report');
  const pdf = await renderReport(kind, content, today);
  return storeDocument(session, {
    kind,
    student_record_id: subject.studentRecordId,
    term_id: subject.termId,
    input_fingerprint: inputFingerprint,
    content_hash: sha256(pdf),
    file_name: `${kind}-${content.student.studentId}-term-${subject.termId}.pdf`,
    content_type: 'application/pdf',
    size: pdf.length,
    content: pdf,
    issued_on: today,
  });
}
