import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OAuth from 'oauth-1.0a';
import { ONEROSTER_FILES } from '../../src/roster/manifest';
import { BASE_MODIFIED, type Json, recordMaker, recordOf } from '../../src/roster/rest-records';
import { type BundleRows, smallSchool } from './roster-bundle';

/**
 * A OneRoster REST provider for the tests, on loopback: the rostering and gradebook collections of
 * 1.1 (/ims/oneroster/v1p1, every request signed with OAuth 1.0a HMAC-SHA256, checked here; a
 * wrong signature answers 401) and of 1.2 (/ims/oneroster/rostering/v1p2 and
 * /ims/oneroster/gradebook/v1p2, bearer tokens from its client-credentials token endpoint). It
 * serves a school built from a CSV bundle's rows (the inverse of the sync's mapping), pages by
 * limit and offset with X-Total-Count and Link rel="next", applies `filter=dateLastModified>'…'`,
 * and lets a test inject faults: statuses with Retry-After, answers that never come, records
 * repeated on the next page, tokens that stop being accepted mid-sync. Its records are mapped from
 * the rows as the service's own provider maps them (src/roster/rest-records.ts).
 */
export { BASE_MODIFIED, type Json, recordMaker, recordOf };

/** Records of a collection, held or made on demand (the benchmark's millions). */
export interface RecordList {
  readonly length: number;
  at(index: number): Json;
  /** The indexes of records changed after `since` (ms), where a list knows them without making every record. */
  modifiedAfter?(since: number): number[];
}

export interface Fault {
  /** The collection whose requests it hits; any when undefined. */
  readonly collection?: string;
  /** Only requests with this offset. */
  readonly offset?: number;
  readonly status?: number;
  readonly retryAfter?: string;
  /** Never answers: the client's time limit ends the request. */
  readonly hang?: boolean;
  /** Every token issued stops being accepted, as when a provider ends tokens early; the request answers 401. */
  readonly expireTokens?: boolean;
  /**
   * The answer waits for this, then is given as usual (or with `status`, when there is one): a sync
   * held mid-way for as long as a test wants.
   */
  readonly held?: Promise<void>;
  /** How many requests it hits. */
  times: number;
}

export interface ProviderOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Which paging headers the answers carry. */
  readonly paging?: 'link' | 'total' | 'both';
  readonly tokenLifetimeSeconds?: number;
  /**
   * What its token endpoint accepts. `lenient` (the default): HTTP Basic, decoding form-encoded
   * credentials, or the form body. The strict modes are token endpoints as real providers have
   * them: `basic` compares the Basic credentials as sent with base64 of `id:secret` (no decoding, so
   * `sis%2Dclient` is refused); `basic-encoded` requires them form-encoded first (RFC 6749
   * §2.3.1); `post` reads only `client_id` and `client_secret` of the body.
   */
  readonly tokenAuth?: 'lenient' | 'basic' | 'basic-encoded' | 'post';
}

export const PROVIDER_CLIENT = { id: 'school-sync', secret: 'a-long-provider-secret-9f2c' };

const GRADEBOOK = new Set(['categories', 'lineItems', 'results']);

/** The small school's OneRoster files alone, with its manifest: what a SIS holds of it (a title needing quotes). */
export function sisSchool(): BundleRows {
  const school = smallSchool();
  // A title the sync's CSV must quote: a comma and quotes.
  const klass = school.classes.find((row) => row.sourcedId === 'math-7b') as Record<string, string>;
  klass.title = 'Math 7B, "blue" group';
  return Object.fromEntries(['manifest', ...ONEROSTER_FILES].map((name) => [name, school[name]]));
}

/** The SIS school as one of a district's two: "sch-2" with a class, a student, an enrolment and a mark of its own. */
export function districtSchool(): BundleRows {
  const school = sisSchool();
  const other = (rows: Array<Record<string, string>>, sourcedId: string, changes: Record<string, string>) => {
    const found = rows.find((row) => row.sourcedId === sourcedId) as Record<string, string>;
    rows.push({ ...found, ...changes });
  };
  other(school.orgs, 'sch-1', { sourcedId: 'sch-2', name: 'Second School' });
  other(school.classes, 'math-7b', { sourcedId: 'math-9x', schoolSourcedId: 'sch-2' });
  other(school.users, 's3', { sourcedId: 's9', orgSourcedIds: 'sch-2', agentSourcedIds: '' });
  other(school.enrollments, 'e6', {
    sourcedId: 'e90',
    classSourcedId: 'math-9x',
    userSourcedId: 's9',
    schoolSourcedId: 'sch-2',
  });
  other(school.lineItems, 'li3', { sourcedId: 'li9', classSourcedId: 'math-9x' });
  other(school.results, 'r4', { sourcedId: 'r9', lineItemSourcedId: 'li9', studentSourcedId: 's9' });
  return school;
}

/** The school of a bundle's OneRoster files as the provider's collections. */
export function schoolOf(rows: BundleRows, version: '1.1' | '1.2'): Map<string, Json[]> {
  return new Map(
    ONEROSTER_FILES.map((name) => [name, (rows[name] ?? []).map((row) => recordOf(name, row, version))] as const),
  );
}

export class OneRosterProvider {
  readonly faults: Fault[] = [];
  /** Every request's path and query, in order. */
  readonly requests: string[] = [];
  /** The scopes each token was asked for. */
  readonly scopesAsked: string[] = [];
  tokensIssued = 0;
  /** Pages repeat the previous page's last record first, as offset paging over moving data does. */
  duplicateAcrossPages = false;
  /**
   * The collection whose every page's `next` link names that same page again under a new query
   * (`&round=N`): a provider that pages without end, whatever URLs the sync has seen.
   */
  nextGoesRound: string | undefined;
  private rounds = 0;
  /** Refused signatures and tokens. */
  refusals = 0;
  private readonly tokens = new Map<string, number>();
  private readonly collections = new Map<string, RecordList>();
  private server: Server | undefined;
  private readonly clientId: string;
  private readonly clientSecret: string;

  constructor(
    school: Map<string, Json[] | RecordList>,
    private readonly options: ProviderOptions = {},
  ) {
    for (const [name, records] of school)
      this.collections.set(name, Array.isArray(records) ? listOf(records) : records);
    this.clientId = options.clientId ?? PROVIDER_CLIENT.id;
    this.clientSecret = options.clientSecret ?? PROVIDER_CLIENT.secret;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.answer(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    return this.origin;
  }

  get origin(): string {
    return `http://127.0.0.1:${((this.server as Server).address() as AddressInfo).port}`;
  }

  /** The settings a sync of this provider needs, for `version`. */
  settings(version: '1.1' | '1.2'): Record<string, string> {
    return version === '1.1'
      ? {
          SIS_URL: `${this.origin}/ims/oneroster/v1p1`,
          SIS_CLIENT_ID: this.clientId,
          SIS_CLIENT_SECRET: this.clientSecret,
        }
      : {
          SIS_URL: `${this.origin}/ims/oneroster/rostering/v1p2`,
          SIS_TOKEN_URL: `${this.origin}/oauth/token`,
          SIS_CLIENT_ID: this.clientId,
          SIS_CLIENT_SECRET: this.clientSecret,
        };
  }

  /** Replaces or adds a record (a changed mark, a new user). */
  put(collection: string, record: Json): void {
    const list = this.collections.get(collection);
    const records: Json[] = [];
    for (let index = 0; index < (list?.length ?? 0); index += 1) records.push((list as RecordList).at(index));
    const at = records.findIndex((candidate) => candidate.sourcedId === record.sourcedId);
    if (at >= 0) records[at] = record;
    else records.push(record);
    this.collections.set(collection, listOf(records));
  }

  record(collection: string, sourcedId: string): Json {
    const list = this.collections.get(collection) as RecordList;
    for (let index = 0; index < list.length; index += 1) {
      if (list.at(index).sourcedId === sourcedId) return structuredClone(list.at(index));
    }
    throw new Error(`no ${collection} record ${sourcedId}`);
  }

  /** Every token issued so far stops being accepted, as when a provider ends tokens early. */
  expireTokens(): void {
    this.tokens.clear();
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    this.requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/oauth/token' && request.method === 'POST') return this.token(request, response);
    const match = /^\/ims\/oneroster\/(?:v1p1|(rostering|gradebook)\/v1p2)\/(\w+)$/.exec(url.pathname);
    if (!match || request.method !== 'GET' || !this.collections.has(match[2])) return send(response, 404, {});
    const version = match[1] ? '1.2' : '1.1';
    const collection = match[2];
    if (version === '1.2' && (match[1] === 'gradebook') !== GRADEBOOK.has(collection)) return send(response, 404, {});
    const authorized = version === '1.1' ? this.signed(request, url) : this.bearer(request);
    if (!authorized) {
      this.refusals += 1;
      return send(response, 401, { imsx_codeMajor: 'failure', imsx_description: 'unauthorized' });
    }
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const fault = this.faults.find(
      (candidate) =>
        candidate.times > 0 &&
        (candidate.collection === undefined || candidate.collection === collection) &&
        (candidate.offset === undefined || candidate.offset === offset),
    );
    if (fault) {
      fault.times -= 1;
      if (fault.hang) return;
      if (fault.held) {
        await fault.held;
        if (fault.status === undefined) return this.page(collection, url, response);
      }
      if (fault.expireTokens) {
        this.expireTokens();
        return send(response, 401, { imsx_codeMajor: 'failure', imsx_description: 'token expired' });
      }
      if (fault.retryAfter !== undefined) response.setHeader('Retry-After', fault.retryAfter);
      return send(response, fault.status ?? 500, {});
    }
    this.page(collection, url, response);
  }

  private page(collection: string, url: URL, response: ServerResponse): void {
    const all = this.collections.get(collection) as RecordList;
    const filter = url.searchParams.get('filter');
    let indexes: number[] | undefined;
    if (filter) {
      const since = /^dateLastModified>'([^']+)'$/.exec(filter);
      if (!since) {
        send(response, 400, { imsx_description: `unsupported filter ${filter}` });
        return;
      }
      const after = Date.parse(since[1]);
      indexes = all.modifiedAfter?.(after);
      if (!indexes) {
        indexes = [];
        for (let index = 0; index < all.length; index += 1) {
          if (Date.parse(all.at(index).dateLastModified as string) > after) indexes.push(index);
        }
      }
    }
    const total = indexes ? indexes.length : all.length;
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), 10_000);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const records: Json[] = [];
    const start = this.duplicateAcrossPages && offset > 0 ? offset - 1 : offset;
    for (let index = start; index < Math.min(offset + limit, total); index += 1) {
      records.push(all.at(indexes ? indexes[index] : index));
    }
    const paging = this.options.paging ?? 'both';
    if (paging !== 'link') response.setHeader('X-Total-Count', String(total));
    if (this.nextGoesRound === collection) {
      const again = new URL(url.href);
      this.rounds += 1;
      again.searchParams.set('round', String(this.rounds));
      response.setHeader('Link', `<${again.href}>; rel="next"`);
    } else if (paging !== 'total' && offset + limit < total) {
      const next = new URL(url.href);
      next.searchParams.set('offset', String(offset + limit));
      response.setHeader('Link', `<${next.href}>; rel="next"`);
    }
    send(response, 200, { [collection]: records });
  }

  /** OAuth 1.0a: the signature of the request as received, made again with the consumer secret. */
  private signed(request: IncomingMessage, url: URL): boolean {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('OAuth ')) return false;
    const parameters: Record<string, string> = {};
    for (const part of header.slice(6).split(',')) {
      const found = /^\s*([\w]+)="([^"]*)"\s*$/.exec(part);
      if (found) parameters[found[1]] = decodeURIComponent(found[2]);
    }
    if (parameters.oauth_consumer_key !== this.clientId || parameters.oauth_signature_method !== 'HMAC-SHA256') {
      return false;
    }
    const { oauth_signature: signature, ...data } = parameters;
    const signer = new OAuth({
      consumer: { key: this.clientId, secret: this.clientSecret },
      signature_method: 'HMAC-SHA256',
      hash_function: (base, key) => createHmac('sha256', key).update(base).digest('base64'),
    });
    const expected = signer.getSignature({ url: url.href, method: request.method ?? 'GET' }, undefined, data as never);
    return signature === expected;
  }

  private bearer(request: IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const until = token ? this.tokens.get(token) : undefined;
    return until !== undefined && until > Date.now();
  }

  /** Whether the token request proves the client, as the provider's `tokenAuth` mode reads it. */
  private clientAccepted(authorization: string | undefined, form: URLSearchParams): boolean {
    const mode = this.options.tokenAuth ?? 'lenient';
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    const posted = form.get('client_id') === this.clientId && form.get('client_secret') === this.clientSecret;
    if (mode === 'post') return basic === undefined && posted;
    if (mode === 'basic') return basic === base64(`${this.clientId}:${this.clientSecret}`);
    if (mode === 'basic-encoded') {
      return basic === base64(`${formEncoded(this.clientId)}:${formEncoded(this.clientSecret)}`);
    }
    if (basic === undefined) return posted;
    // Lenient: the credentials as sent, else decoded.
    const [id, secret] = Buffer.from(basic, 'base64').toString().split(':');
    const decoded = (part = '') => decodeURIComponent(part.replace(/\+/g, ' '));
    const plain = id === this.clientId && secret === this.clientSecret;
    return plain || (decoded(id) === this.clientId && decoded(secret) === this.clientSecret);
  }

  private async token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials')
      return send(response, 400, { error: 'unsupported_grant_type' });
    if (!this.clientAccepted(request.headers.authorization, form)) {
      this.refusals += 1;
      return send(response, 401, { error: 'invalid_client' });
    }
    const lifetime = this.options.tokenLifetimeSeconds ?? 3600;
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, Date.now() + lifetime * 1000);
    this.tokensIssued += 1;
    this.scopesAsked.push(form.get('scope') ?? '');
    send(response, 200, { access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: form.get('scope') });
  }
}

function listOf(records: Json[]): RecordList {
  return { length: records.length, at: (index) => records[index] };
}

function send(response: ServerResponse, status: number, body: Json): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** application/x-www-form-urlencoded as RFC 6749 §2.3.1 asks of a client id and secret (Appendix B). */
function formEncoded(text: string): string {
  return new URLSearchParams({ v: text })
    .toString()
    .slice(2)
    .replace(/[-_.!~*'()]/g, escapeAscii);
}

function escapeAscii(character: string): string {
  return `%${character.charCodeAt(0).toString(16).toUpperCase()}`;
}
