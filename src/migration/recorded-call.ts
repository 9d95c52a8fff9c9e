/**
 * One recorded call, one JSON object a line: what `serve --record FILE` writes and `replay` reads.
 * `operation` and `binding` are as the service decoded them (a hand-written line may leave them
 * out); `body` is the request body as UTF-8 text, empty for a GET.
 */
export interface RecordedCall {
  readonly at?: string;
  readonly operation?: string;
  readonly binding?: string;
  readonly method: 'GET' | 'POST';
  /** The path and query, below the service's base URL: /X.asmx or /X.asmx/Op?… */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The line's call, or why it is not one. */
export function parseRecordedCall(line: string): RecordedCall | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (value === null || typeof value !== 'object') return 'not a JSON object';
  const call = value as Record<string, unknown>;
  if (call.method !== 'GET' && call.method !== 'POST') return 'method must be GET or POST';
  if (typeof call.path !== 'string' || !call.path.startsWith('/')) return 'path must start with /';
  if (call.body !== undefined && typeof call.body !== 'string') return 'body must be text';
  const headers: Record<string, string> = {};
  if (call.headers !== undefined) {
    if (call.headers === null || typeof call.headers !== 'object') return 'headers must be an object';
    for (const [name, header] of Object.entries(call.headers)) {
      if (typeof header !== 'string') return `header ${name} must be text`;
      headers[name.toLowerCase()] = header;
    }
  }
  return {
    operation: typeof call.operation === 'string' ? call.operation : undefined,
    binding: typeof call.binding === 'string' ? call.binding : undefined,
    method: call.method,
    path: call.path,
    headers,
    body: call.body ?? '',
  };
}
