import { revokeCaller } from '../../src/access/caller-admin';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { ALL_SCOPES, SCOPE, startProviderService, tokenRequest } from '../support/provider-client';
import { addTestCallers } from '../support/callers';
import { basic, remoteFetch } from '../support/remote-client';

/**
 * POST /oauth/token from another address, on both engines: OAuth 2 client credentials with the
 * caller's name and secret, in a Basic header (plain or form-encoded) or in the body; the scopes
 * granted as far as the caller's `roster` and `gradebook` groups allow; every malformed or
 * oversized request refused in OAuth's error shape, and too many tokens a minute answered 429.
 */
const GRANT = { grant_type: 'client_credentials' };
const CALLERS = [
  { name: 'lms-1', secret: true, operations: ['roster', 'gradebook'] },
  { name: 'reader', secret: true, operations: ['roster'] },
  { name: 'app', secret: true, operations: ['queries'] },
  { name: 'office', secret: true, operations: ['all'] },
];

const errorOf = (text: string) => (JSON.parse(text) as { error: string }).error;

describeEachEngine('the token endpoint', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  beforeAll(async () => {
    ({ service, secrets } = await startProviderService(engine.freshStoreSettings(), CALLERS));
  });
  afterAll(() => service.close());

  test('Basic credentials, plain: a bearer token with every scope the groups allow, never cached', async () => {
    const answer = await tokenRequest(service, GRANT, { Authorization: basic('lms-1', secrets['lms-1']) });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(answer.text);
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: expect.any(String),
    });
    expect(body.scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
    const office = await tokenRequest(service, GRANT, { Authorization: basic('office', secrets.office) });
    expect(JSON.parse(office.text).scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
  });

  test('Basic credentials form-encoded (RFC 6749 §2.3.1), or in the body, are taken alike', async () => {
    const encode = (text: string) =>
      encodeURIComponent(text).replace(/[-_.]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const encoded = await tokenRequest(service, GRANT, {
      Authorization: basic(encode('lms-1'), encode(secrets['lms-1'])),
    });
    expect(encoded.status).toBe(200);
    const posted = await tokenRequest(service, { ...GRANT, client_id: 'lms-1', client_secret: secrets['lms-1'] });
    expect(posted.status).toBe(200);
  });

  test('a wrong secret, none, or credentials given twice are refused', async () => {
    const wrong = await tokenRequest(service, GRANT, { Authorization: basic('lms-1', `${secrets['lms-1']}x`) });
    expect([wrong.status, errorOf(wrong.text), wrong.headers['www-authenticate']]).toEqual([
      401,
      'invalid_client',
      'Basic realm="school-service", charset="UTF-8"',
    ]);
    expect((await tokenRequest(service, GRANT)).status).toBe(401);
    const twice = await tokenRequest(
      service,
      { ...GRANT, client_id: 'lms-1', client_secret: secrets['lms-1'] },
      { Authorization: basic('lms-1', secrets['lms-1']) },
    );
    expect([twice.status, errorOf(twice.text)]).toEqual([400, 'invalid_request']);
  });

  test('scopes are granted as far as the caller’s groups allow, else invalid_scope', async () => {
    const asked = [SCOPE('roster-core.readonly'), SCOPE('gradebook.createput')];
    const lms = await tokenRequest(
      service,
      { ...GRANT, scope: asked.join(' ') },
      { Authorization: basic('lms-1', secrets['lms-1']) },
    );
    expect(JSON.parse(lms.text).scope).toBe(asked.join(' '));
    const reader = basic('reader', secrets.reader);
    const rosterOnly = await tokenRequest(service, GRANT, { Authorization: reader });
    expect(JSON.parse(rosterOnly.text).scope.split(' ')).toEqual(
      ALL_SCOPES.filter((scope) => scope.includes('roster')),
    );
    for (const scope of [SCOPE('gradebook.readonly'), SCOPE('roster.writeable'), 'x'.repeat(1025)]) {
      const refused = await tokenRequest(service, { ...GRANT, scope }, { Authorization: reader });
      expect([refused.status, errorOf(refused.text)]).toEqual([400, 'invalid_scope']);
    }
    const app = await tokenRequest(service, GRANT, { Authorization: basic('app', secrets.app) });
    expect([app.status, errorOf(app.text)]).toEqual([400, 'invalid_scope']);
  });

  test('grant types, bodies and methods other than the one asked for are refused in OAuth’s shape', async () => {
    const auth = { Authorization: basic('lms-1', secrets['lms-1']) };
    const missing = await tokenRequest(service, {}, auth);
    expect([missing.status, errorOf(missing.text)]).toEqual([400, 'invalid_request']);
    const password = await tokenRequest(service, { grant_type: 'password' }, auth);
    expect([password.status, errorOf(password.text)]).toEqual([400, 'unsupported_grant_type']);
    const repeated = await remoteFetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    expect([repeated.status, errorOf(repeated.text)]).toEqual([400, 'invalid_request']);
    const large = await tokenRequest(service, { ...GRANT, padding: 'x'.repeat(5000) }, auth);
    expect([large.status, errorOf(large.text)]).toEqual([413, 'invalid_request']);
    const json = await tokenRequest(service, GRANT, { ...auth, 'Content-Type': 'application/json' });
    expect([json.status, errorOf(json.text)]).toEqual([400, 'invalid_request']);
    const get = await remoteFetch(`${service.url}/oauth/token`, { headers: auth });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
  });

  test('a revoked caller gets no token', async () => {
    const more = await addTestCallers(service.store, [{ name: 'gone', secret: true, operations: ['roster'] }]);
    await service.readCallers();
    expect((await tokenRequest(service, GRANT, { Authorization: basic('gone', more.gone) })).status).toBe(200);
    await revokeCaller(service.store, 'gone', new Date());
    await service.readCallers();
    expect((await tokenRequest(service, GRANT, { Authorization: basic('gone', more.gone) })).status).toBe(401);
  });

  test('past 60 tokens a minute, a caller is answered 429 with Retry-After', async () => {
    const { busy } = await addTestCallers(service.store, [{ name: 'busy', secret: true, operations: ['roster'] }]);
    await service.readCallers();
    const auth = { Authorization: basic('busy', busy) };
    for (let index = 0; index < 60; index += 1) expect((await tokenRequest(service, GRANT, auth)).status).toBe(200);
    const limited = await tokenRequest(service, GRANT, auth);
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '60']);
  });
});
