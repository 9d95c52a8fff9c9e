import type { IncomingMessage, ServerResponse } from 'node:http';
import { scopeUri } from '../../access/oauth-tokens';
import { collectionOf, readCollection, type RestService } from '../../provider/collection-reads';
import { ReadAudit } from '../../provider/read-audit';
import { tombstoneRecords } from '../../provider/tombstone-records';
import type { RestVersion } from '../../roster/rest-records';
import type { RequestRecord } from '../../telemetry/request-record';
import { baseUrlFor } from '../../wire/base-url';
import { admitCaller } from './caller-admission';
import { sendJson } from './json-answer';
import { writePage } from './page-writer';
import type { ProviderParts } from './provider-parts';
import { sendStatusInfo } from './status-info';

/** The longest path segment taken (a sourcedId): longer ones name nothing the store holds. */
const MAX_SEGMENT_LENGTH = 256;

function segmentsOf(rest: string): string[] | undefined {
  const segments = rest.split('/');
  try {
    const decoded = segments.map((segment) => decodeURIComponent(segment));
    return decoded.some((segment) => segment === '' || segment.length > MAX_SEGMENT_LENGTH) ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * GET of a service's (rostering or gradebook) collections, records and nested collections, for `version`:
 * the bearer token's caller must hold one of the collection's scopes; the answer is its page, or
 * its record, or an error in imsx_StatusInfo shape. A read of people's records is audited
 * (provider/read-audit.ts), its entry in the journal before its answer ends.
 */
export async function answerRead(
  service: RestService,
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  parts: ProviderParts,
  rest: string,
  version: RestVersion,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendStatusInfo(response, 405, 'invaliddata', 'These records are read with GET.', { Allow: 'GET' });
  }
  const segments = segmentsOf(rest);
  const collection = segments ? collectionOf(service, segments) : undefined;
  if (!segments || !collection) return sendStatusInfo(response, 404, 'unknownobject', 'There is no such collection.');
  const identity = await admitCaller(request, response, record, parts, collection.scopes.map(scopeUri));
  if (!identity) return;
  record.operation = `oneroster ${segments.length === 3 ? `${segments[0]}/${segments[2]}` : segments[0]}`;
  const url = new URL(request.url ?? '/', baseUrlFor(request.headers.host, parts.address));
  const audit = ReadAudit.of(collection.file, segments);
  const reading = await parts.exportedRows.open();
  try {
    const { searchParams } = url;
    const tombstones =
      segments.length === 1 ? await tombstoneRecords(parts, segments[0], identity.scope, searchParams) : [];
    const read = await readCollection(service, reading, segments, searchParams, identity.scope, version, tombstones);
    switch (read.kind) {
      case 'unknown-path':
        return sendStatusInfo(response, 404, 'unknownobject', 'There is no such collection.');
      case 'unknown-record':
        return sendStatusInfo(response, 404, 'unknownobject', read.description);
      case 'bad-query':
        return sendStatusInfo(response, 400, read.codeMinor, read.problem);
      case 'one': {
        record.outcome = 'ok';
        audit?.seen(read.record);
        await audit?.write(parts, identity, record.address);
        return sendJson(response, 200, { [read.key]: read.record });
      }
      case 'list': {
        record.outcome = 'ok';
        const page = audit ? audit.watching(read.page) : read.page;
        const written = audit && (() => audit.write(parts, identity, record.address));
        return await writePage(response, read.key, page, read.query, url, written);
      }
    }
  } finally {
    await reading.close();
  }
}
