/**
 * A result as a PUT carries it (`{"result": {...}}`, OneRoster 1.2 gradebook), checked field by
 * field: the line item and student it names, its score (above the line item's maximum is extra
 * credit, kept), its scoreStatus and an optional comment. A problem names its field.
 */
export interface ResultBody {
  readonly lineItem: string;
  readonly student: string;
  /** Undefined for a result that holds no mark (`exempt`, `not submitted`, `submitted`). */
  readonly score: number | undefined;
  readonly scoreStatus: string;
  readonly scoreDate: string | undefined;
  readonly comment: string | undefined;
}

export type ResultParse =
  | { readonly ok: true; readonly result: ResultBody }
  | { readonly ok: false; readonly field: string; readonly problem: string };

export const SCORE_STATUSES = ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'];
/**
 * The statuses a result may have without a score, as the import of a 1.2 bundle takes them:
 * nothing was graded, so the result gives no mark (and counts in no average).
 */
export const UNSCORED_STATUSES = ['exempt', 'not submitted', 'submitted'];
/** The longest sourcedId and comment taken. */
export const MAX_SOURCED_ID_LENGTH = 256;
export const MAX_COMMENT_LENGTH = 2_000;
/** A score beyond this is no mark (an extra credit of a thousand times the maximum is a typo). */
const MAX_SCORE = 1_000_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

type Json = Record<string, unknown>;

const problem = (field: string, text: string): ResultParse => ({ ok: false, field, problem: `${field}: ${text}` });

function referenceOf(value: unknown): string | undefined {
  const sourcedId = value && typeof value === 'object' ? (value as Json).sourcedId : undefined;
  return typeof sourcedId === 'string' && sourcedId !== '' && sourcedId.length <= MAX_SOURCED_ID_LENGTH
    ? sourcedId
    : undefined;
}

export function parseResult(body: unknown, sourcedId: string): ResultParse {
  const result = body && typeof body === 'object' ? (body as Json).result : undefined;
  if (!result || typeof result !== 'object' || Array.isArray(result)) {
    return problem('result', 'the body is {"result": {...}}');
  }
  const fields = result as Json;
  if (fields.sourcedId !== undefined && fields.sourcedId !== sourcedId) {
    return problem('sourcedId', "differs from the path's");
  }
  const lineItem = referenceOf(fields.lineItem);
  if (!lineItem) return problem('lineItem', 'a reference {"sourcedId": "..."} is required');
  const student = referenceOf(fields.student);
  if (!student) return problem('student', 'a reference {"sourcedId": "..."} is required');
  const scoreStatus = fields.scoreStatus ?? 'fully graded';
  if (typeof scoreStatus !== 'string' || !SCORE_STATUSES.includes(scoreStatus)) {
    return problem('scoreStatus', `one of ${SCORE_STATUSES.join(', ')}`);
  }
  const { score } = fields;
  const unscored = (score === undefined || score === null) && UNSCORED_STATUSES.includes(scoreStatus);
  if (!unscored && (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > MAX_SCORE)) {
    const without = `without one, scoreStatus is one of ${UNSCORED_STATUSES.join(', ')}`;
    return problem('score', `a number from 0 to ${MAX_SCORE} is required (${without})`);
  }
  const { comment, scoreDate } = fields;
  if (comment !== undefined && (typeof comment !== 'string' || comment.length > MAX_COMMENT_LENGTH)) {
    return problem('comment', `text of at most ${MAX_COMMENT_LENGTH} characters`);
  }
  if (scoreDate !== undefined && (typeof scoreDate !== 'string' || !DATE_TIME.test(scoreDate))) {
    return problem('scoreDate', 'an ISO 8601 date or date-time');
  }
  return {
    ok: true,
    result: {
      lineItem,
      student,
      score: unscored ? undefined : (score as number),
      scoreStatus,
      scoreDate,
      comment: comment as string | undefined,
    },
  };
}

/**
 * A result without a mark, kept whole as the import keeps an unscored 1.2 result: the row of
 * results.csv it is given back as.
 */
export function unscoredRowOf(result: ResultBody, sourcedId: string, modifiedAt: string): string {
  const row: Record<string, string> = {
    sourcedId,
    dateLastModified: modifiedAt,
    lineItemSourcedId: result.lineItem,
    studentSourcedId: result.student,
    scoreStatus: result.scoreStatus,
  };
  if (result.comment) row.comment = result.comment;
  // The binding requires a result's scoreDate: without one given, the day its status was written.
  row.scoreDate = (result.scoreDate ?? modifiedAt).slice(0, 10);
  return JSON.stringify(row);
}

/** The fields of a result the store does not hold, kept as an import keeps them; null for none. */
export function keptFieldsOf(result: ResultBody): string | null {
  const kept: Record<string, string> = {};
  if (result.scoreStatus !== 'fully graded') kept.scoreStatus = result.scoreStatus;
  if (result.comment) kept.comment = result.comment;
  if (result.scoreDate) kept.scoreDate = result.scoreDate.slice(0, 10);
  return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null;
}
