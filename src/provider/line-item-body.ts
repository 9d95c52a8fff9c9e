import { lineItems } from '../roster/collections/line-items';
import { MAX_COMMENT_LENGTH, MAX_SOURCED_ID_LENGTH } from './result-body';

/**
 * A line item as a PUT carries it (`{"lineItem": {...}}`, OneRoster 1.2 gradebook), checked field
 * by field, and its row of lineItems.csv made by the collection's own REST mapping (the one the SIS
 * sync reads with), so that the row kept is the row an import of the same record keeps. A problem
 * names its field.
 */
export interface LineItemBody {
  readonly title: string;
  readonly nameEn: string | undefined;
  readonly classSourcedId: string;
  readonly categorySourcedId: string | undefined;
  readonly sessionSourcedId: string;
  /** The date it is held (its dueDate), YYYY-MM-DD. */
  readonly dueDate: string;
  readonly resultValueMax: number;
  /** Its row of lineItems.csv, as the import keeps it (metadata left out: those columns are the service's). */
  readonly row: Readonly<Record<string, string>>;
}

export type LineItemParse =
  | { readonly ok: true; readonly lineItem: LineItemBody }
  | { readonly ok: false; readonly problem: string };

export const MAX_TITLE_LENGTH = 500;
/** A maximum beyond this is no score range (the bound a result's score has too). */
const MAX_RESULT_VALUE = 1_000_000;
const DATE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

type Json = Record<string, unknown>;

/**
 * Columns of the mapped row not kept: the status and time are the service's (the time of the
 * write), and the store keeps no score scales, so a row naming one would not import back.
 */
const NOT_KEPT = new Set(['status', 'dateLastModified', 'scoreScaleSourcedId']);

const problem = (field: string, text: string): LineItemParse => ({ ok: false, problem: `${field}: ${text}` });

const isReference = (value: unknown): boolean => {
  const sourcedId = value && typeof value === 'object' ? (value as Json).sourcedId : undefined;
  return typeof sourcedId === 'string' && sourcedId !== '' && sourcedId.length <= MAX_SOURCED_ID_LENGTH;
};

const isDate = (value: unknown): boolean =>
  typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value.slice(0, 10)));

/** The first problem of the fields other than references, or undefined. */
function fieldProblem(fields: Json): LineItemParse | undefined {
  const { title, description, assignDate, dueDate, resultValueMin, resultValueMax } = fields;
  if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE_LENGTH) {
    return problem('title', `text of 1 to ${MAX_TITLE_LENGTH} characters is required`);
  }
  if (description !== undefined && (typeof description !== 'string' || description.length > MAX_COMMENT_LENGTH)) {
    return problem('description', `text of at most ${MAX_COMMENT_LENGTH} characters`);
  }
  if (assignDate !== undefined && !isDate(assignDate)) return problem('assignDate', 'an ISO 8601 date or date-time');
  if (!isDate(dueDate)) return problem('dueDate', 'an ISO 8601 date or date-time is required');
  const min = resultValueMin ?? 0;
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > MAX_RESULT_VALUE) {
    return problem('resultValueMin', `a number from 0 to ${MAX_RESULT_VALUE}`);
  }
  if (
    typeof resultValueMax !== 'number' ||
    !Number.isFinite(resultValueMax) ||
    resultValueMax <= min ||
    resultValueMax > MAX_RESULT_VALUE
  ) {
    return problem('resultValueMax', `a number above resultValueMin, at most ${MAX_RESULT_VALUE}, is required`);
  }
  const metadata = fields.metadata;
  const nameEn = metadata && typeof metadata === 'object' ? (metadata as Json).nameEn : undefined;
  if (nameEn !== undefined && (typeof nameEn !== 'string' || nameEn.length > MAX_TITLE_LENGTH)) {
    return problem('metadata.nameEn', `text of at most ${MAX_TITLE_LENGTH} characters`);
  }
  return undefined;
}

export function parseLineItem(body: unknown, sourcedId: string): LineItemParse {
  const item = body && typeof body === 'object' ? (body as Json).lineItem : undefined;
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return problem('lineItem', 'the body is {"lineItem": {...}}');
  const fields = item as Json;
  if (fields.sourcedId !== undefined && fields.sourcedId !== sourcedId) {
    return problem('sourcedId', "differs from the path's");
  }
  if (!isReference(fields.class)) return problem('class', 'a reference {"sourcedId": "..."} is required');
  if (fields.category !== undefined && !isReference(fields.category)) {
    return problem('category', 'a reference {"sourcedId": "..."}');
  }
  // 1.2 names the session as gradingPeriod or academicSession; the store needs one to place the mark in a term.
  const session = fields.gradingPeriod ?? fields.academicSession;
  if (!isReference(session)) {
    return problem('gradingPeriod', 'a reference {"sourcedId": "..."} to a grading period or term is required');
  }
  const bad = fieldProblem(fields);
  if (bad) return bad;
  const mapped = lineItems.fromRest({ ...fields, sourcedId });
  const row: Record<string, string> = {};
  for (const [column, value] of Object.entries(mapped)) {
    if (value !== '' && !column.startsWith('metadata.') && !NOT_KEPT.has(column)) row[column] = value;
  }
  const nameEn = (fields.metadata as Json | undefined)?.nameEn as string | undefined;
  return {
    ok: true,
    lineItem: {
      title: fields.title as string,
      nameEn: nameEn || undefined,
      classSourcedId: mapped.classSourcedId,
      categorySourcedId: mapped.categorySourcedId || undefined,
      sessionSourcedId: mapped.gradingPeriodSourcedId,
      dueDate: mapped.dueDate,
      resultValueMax: fields.resultValueMax as number,
      row,
    },
  };
}
