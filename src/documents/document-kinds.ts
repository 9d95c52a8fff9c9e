import type { GeneratedDocumentTable } from '../store/schema';
import type { BilingualName } from '../store/queries/report-content';

/** The two documents the service issues: the same content, titled and named for their purpose. */
export type DocumentKind = GeneratedDocumentTable['kind'];

export const DOCUMENT_TITLES: Record<DocumentKind, BilingualName> = {
  'report-card': { nameAr: 'بطاقة تقرير الطالب', nameEn: 'Report card' },
  'term-book': { nameAr: 'سجل الفصل الدراسي', nameEn: 'Term book' },
};
