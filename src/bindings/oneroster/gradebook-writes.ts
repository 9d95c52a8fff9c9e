import type { AuditTrail } from '../../audit/audit-trail';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeUri } from '../../access/oauth-tokens';
import { deleteLineItem, putLineItem } from '../../provider/line-item-writes';
import { deleteResult, putResult, type WriteOutcome } from '../../provider/result-writes';
import type { RequestRecord } from '../../telemetry/request-record';
import { parseContentType } from '../../wire/content-type';
import { jsonBoundsProblem } from '../../wire/json-bounds';
import { readBody } from '../../wire/read-body';
import { sendEmpty } from '../../wire/send';
import { admitCaller } from './caller-admission';
import { sendJson } from './json-answer';
import type { ProviderParts } from './provider-parts';
import { sendStatusInfo } from './status-info';

/**
 * The largest result or line item taken: either is a few hundred bytes, a comment or description
 * at most 2,000 characters.
 */
export const MAX_RESULT_BYTES = 16_384;
const WRITE_PATH = /^(results|lineItems)\/([^/]{1,256})$/;

/** The collection and sourcedId a write's path names. */
function targetOf(rest: string): { collection: 'results' | 'lineItems'; sourcedId: string } | undefined {
  const match = WRITE_PATH.exec(rest);
  if (!match) return undefined;
  try {
    return { collection: match[1] as 'results' | 'lineItems', sourcedId: decodeURIComponent(match[2]) };
  } catch {
    return undefined;
  }
}

const WRITERS = {
  results: { put: putResult, delete: deleteResult },
  lineItems: { put: putLineItem, delete: deleteLineItem },
} as const;

/** The JSON body of a PUT, or why there is none. */
async function bodyOf(request: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false; problem: string }> {
  if (parseContentType(request.headers['content-type']).mediaType !== 'application/json') {
    return { ok: false, problem: 'The body must be application/json.' };
  }
  const read = await readBody(request, MAX_RESULT_BYTES);
  if (read.kind !== 'body')
    return { ok: false, problem: `The body must be uncompressed and at most ${MAX_RESULT_BYTES} bytes.` };
  const text = read.body.toString('utf8');
  const bounds = jsonBoundsProblem(text);
  if (bounds) return { ok: false, problem: bounds };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'The body is not JSON.' };
  }
}

/**
 * The answer to a write, sent once the trail's entry for it is in the journal file, as a SOAP
 * call's is: an answered write is never missing from the trail, even after a SIGKILL.
 */
function answer(response: ServerResponse, record: RequestRecord, outcome: WriteOutcome, audit: AuditTrail): void {
  record.outcome = outcome.kind === 'written' || outcome.kind === 'deleted' ? 'ok' : outcome.kind;
  const send = () => {
    if (outcome.kind === 'written') sendJson(response, outcome.created ? 201 : 200, {});
    else if (outcome.kind === 'deleted') sendEmpty(response, 204);
    else if (outcome.kind === 'invalid') sendStatusInfo(response, 400, 'invaliddata', outcome.problem);
    else if (outcome.kind === 'unknown') sendStatusInfo(response, 404, 'unknownobject', outcome.problem);
    else sendStatusInfo(response, 403, 'forbidden', outcome.problem);
  };
  audit.afterJournal(send, () =>
    sendStatusInfo(response, 500, 'internal_server_error', 'The write could not be recorded in the audit trail.'),
  );
}

/**
 * PUT and DELETE of `/results/{sourcedId}` and `/lineItems/{sourcedId}` under the gradebook
 * service: a PUT creates (201) or replaces (200) the record, a DELETE removes it (204). The token
 * needs `gradebook.createput` or `gradebook.delete`.
 */
export async function answerGradebookWrite(
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  parts: ProviderParts,
  rest: string,
): Promise<void> {
  const target = targetOf(rest);
  const method = request.method;
  if (target === undefined || (method !== 'PUT' && method !== 'DELETE')) {
    return sendStatusInfo(
      response,
      404,
      'unknownobject',
      'Results and line items are written with PUT and DELETE of /results/{sourcedId} and /lineItems/{sourcedId}.',
    );
  }
  const { collection, sourcedId } = target;
  const needed = scopeUri(method === 'PUT' ? 'gradebook.createput' : 'gradebook.delete');
  const identity = await admitCaller(request, response, record, parts, [needed], method === 'PUT');
  if (!identity) return;
  record.operation = `oneroster ${method} ${collection}`;
  const writeParts = { ...parts, changed: () => parts.exportedRows.changed() };
  const writer = WRITERS[collection];
  if (method === 'DELETE')
    return answer(response, record, await writer.delete(writeParts, identity, record.address, sourcedId), parts.audit);
  const body = await bodyOf(request);
  if (!body.ok) return sendStatusInfo(response, 400, 'invaliddata', body.problem, { Connection: 'close' });
  answer(response, record, await writer.put(writeParts, identity, record.address, sourcedId, body.body), parts.audit);
}
