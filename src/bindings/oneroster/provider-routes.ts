import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../../lib/log';
import type { RequestRecord } from '../../telemetry/request-record';
import type { ProviderParts } from './provider-parts';
import { sendStatusInfo } from './status-info';
import { GRADEBOOK_SERVICE, ONEROSTER_11_SERVICE, ROSTERING_SERVICE } from '../../provider/collection-reads';
import { answerGradebookWrite } from './gradebook-writes';
import { answerRead } from './rest-reads';
import { answerTokenRequest } from './token-endpoint';

const ROSTERING_1_2 = '/ims/oneroster/rostering/v1p2/';
const GRADEBOOK_1_2 = '/ims/oneroster/gradebook/v1p2/';
/** OneRoster 1.1, read only, for older consumers: the same records in the 1.1 shapes. */
const ONEROSTER_1_1 = '/ims/oneroster/v1p1/';

/** Answers one request to the OneRoster provider: its token endpoint, or its REST paths. */
export type ProviderRoutes = (
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
) => Promise<void>;

/**
 * The provider's routes. A failure nothing else handled is logged by path alone (a query may hold
 * a filter on someone's e-mail address) and answered 500 in imsx_StatusInfo shape.
 */
export function providerRoutes(parts: ProviderParts): ProviderRoutes {
  const route = routeTo(parts);
  return async (request, response, record) => {
    try {
      await route(request, response, record);
    } catch (error) {
      log.error('OneRoster request failed', {
        school: record.school,
        path: (request.url ?? '/').split('?')[0].slice(0, 200),
        error: error instanceof Error ? error.stack : String(error),
      });
      if (response.headersSent) response.destroy();
      else sendStatusInfo(response, 500, 'internal_server_error', 'The request failed; the failure is logged.');
    }
  };
}

function routeTo(parts: ProviderParts): ProviderRoutes {
  return async (request, response, record) => {
    record.binding = 'oneroster';
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/oauth/token') return answerTokenRequest(request, response, record, parts);
    if (path.startsWith(ROSTERING_1_2)) {
      return answerRead(ROSTERING_SERVICE, request, response, record, parts, path.slice(ROSTERING_1_2.length), '1.2');
    }
    if (path.startsWith(ONEROSTER_1_1)) {
      return answerRead(
        ONEROSTER_11_SERVICE,
        request,
        response,
        record,
        parts,
        path.slice(ONEROSTER_1_1.length),
        '1.1',
      );
    }
    if (path.startsWith(GRADEBOOK_1_2)) {
      const rest = path.slice(GRADEBOOK_1_2.length);
      if (request.method === 'GET' || request.method === 'HEAD') {
        return answerRead(GRADEBOOK_SERVICE, request, response, record, parts, rest, '1.2');
      }
      return answerGradebookWrite(request, response, record, parts, rest);
    }
    sendStatusInfo(response, 404, 'unknownobject', 'There is no such OneRoster endpoint here.');
  };
}
