import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeUri } from '../../access/oauth-tokens';
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

/** The largest result taken: a result is a few hundred bytes, its comment at most 2,000 characters. */
export const MAX_RESULT_BYTES = 16_384;
const RESULT_PATH = /^results\/([^/]{1,256})$/;

function sourcedIdOf(rest: string): string | undefined {
  const match = RESULT_PATH.exec(rest);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

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

function answer(response: ServerResponse, record: RequestRecord, outcome: WriteOutcome): void {
  record.outcome = outcome.kind === 'written' || outcome.kind === 'deleted' ? 'ok' : outcome.kind;
  if (outcome.kind === 'written') sendJson(response, outcome.created ? 201 : 200, {});
  else if (outcome.kind === 'deleted') sendEmpty(response, 204);
  else if (outcome.kind === 'invalid') sendStatusInfo(response, 400, 'invaliddata', outcome.problem);
  else if (outcome.kind === 'unknown') sendStatusInfo(response, 404, 'unknownobject', outcome.problem);
  else sendStatusInfo(response, 403, 'forbidden', outcome.problem);
}

/**
 * PUT and DELETE of `/results/{sourcedId}` under the gradebook service: a PUT creates (201) or
 * replaces (200) the result, a DELETE removes it (204). The token needs `gradebook.createput` or
 * `gradebook.delete`.
 */
export async function answerGradebookWrite(
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  parts: ProviderParts,
  rest: string,
): Promise<void> {
  const sourcedId = sourcedIdOf(rest);
  const method = request.method;
  if (sourcedId === undefined || (method !== 'PUT' && method !== 'DELETE')) {
    return sendStatusInfo(
      response,
      404,
      'unknownobject',
      'Results are written with PUT and DELETE of /results/{sourcedId}.',
    );
  }
  const needed = scopeUri(method === 'PUT' ? 'gradebook.createput' : 'gradebook.delete');
  const identity = await admitCaller(request, response, record, parts, [needed], method === 'PUT');
  if (!identity) return;
  record.operation = `oneroster ${method} results`;
  const writeParts = { ...parts, changed: () => parts.exportedRows.changed() };
  if (method === 'DELETE')
    return answer(response, record, await deleteResult(writeParts, identity, record.address, sourcedId));
  const body = await bodyOf(request);
  if (!body.ok) return sendStatusInfo(response, 400, 'invaliddata', body.problem, { Connection: 'close' });
  answer(response, record, await putResult(writeParts, identity, record.address, sourcedId, body.body));
}
