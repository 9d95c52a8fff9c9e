import type { ServerResponse } from 'node:http';
import { sendJson } from './json-answer';

/** The binding's codeMinor values this provider answers with. */
export type CodeMinor =
  | 'invalid_filter_field'
  | 'invalid_selection_field'
  | 'invalid_sort_field'
  | 'invaliddata'
  | 'unauthorisedrequest'
  | 'forbidden'
  | 'unknownobject'
  | 'server_busy'
  | 'internal_server_error';

/** An error of the REST binding, in its imsx_StatusInfo shape (OneRoster 1.2 REST binding, §3.3). */
export function sendStatusInfo(
  response: ServerResponse,
  status: number,
  codeMinor: CodeMinor,
  description: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(
    response,
    status,
    {
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_description: description,
      imsx_CodeMinor: {
        imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: codeMinor }],
      },
    },
    headers,
  );
}
