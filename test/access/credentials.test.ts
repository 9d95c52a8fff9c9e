import { randomBytes } from 'node:crypto';
import { revokeCaller, rotateSecret } from '../../src/access/caller-admin';
import type { RunningService } from '../../src/service';
import {
  BINDINGS,
  basic,
  type SchoolWithCallers,
  refusalsLogged,
  remoteCall,
  startSchoolWithCallers,
  testDigestSealer,
  usernameTokenHeader,
} from '../support/callers';
import { eventually } from '../support/eventually';

/**
 * The credentials every client stack can send, checked on the wire from another address: HTTP
 * Basic on every binding, a bearer token on JSON, WS-Security UsernameToken (text and digest, with
 * its nonce and time) on SOAP; callers recognised by network, by secret, or by both; and a proxy
 * believed only when it is trusted.
 */
const INFO = '/GetStudentsInformation.asmx';
const ask = (service: RunningService, binding: (typeof BINDINGS)[number], options = {}) =>
  remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, binding, options);

describe('credentials', () => {
  let school: SchoolWithCallers;
  let service: RunningService;
  let secret: string;
  let digestSecret: string;
  beforeAll(async () => {
    school = await startSchoolWithCallers(
      [
        { name: 'app', secret: true },
        { name: 'legacy-ws', wsDigest: true },
        { name: 'office', networks: ['127.0.0.3/32'] },
        { name: 'kiosk', networks: ['127.0.0.5/32'], secret: true },
      ],
      { TRUSTED_PROXIES: '127.0.0.4/32' },
    );
    service = school.service;
    ({ app: secret, 'legacy-ws': digestSecret } = school.secrets);
  });
  afterAll(() => school.close());

  test.each(BINDINGS)('HTTP Basic with the secret is let in over %s; a wrong secret is challenged', async (binding) => {
    expect((await ask(service, binding, { headers: { Authorization: basic('app', secret) } })).status).toBe(200);
    const wrong = await ask(service, binding, { headers: { Authorization: basic('app', `${secret}x`) } });
    expect([wrong.status, wrong.headers['www-authenticate']]).toEqual([
      401,
      'Basic realm="school-service", charset="UTF-8"',
    ]);
  });

  test('a bearer token is taken on JSON, and on no other binding', async () => {
    const bearer = { Authorization: `Bearer ${secret}` };
    expect((await ask(service, 'json', { headers: bearer })).status).toBe(200);
    expect((await ask(service, 'get', { headers: bearer })).status).toBe(401);
    expect((await ask(service, 'json', { headers: { Authorization: `Bearer ${secret.slice(0, -1)}` } })).status).toBe(
      401,
    );
  });

  test.each(['soap11', 'soap12'] as const)(
    'a WS-Security UsernameToken with PasswordText is let in over %s',
    async (binding) => {
      expect((await ask(service, binding, { soapHeader: usernameTokenHeader('app', secret) })).status).toBe(200);
      const wrong = await ask(service, binding, { soapHeader: usernameTokenHeader('app', 'guess') });
      expect(wrong.status).toBe(401);
    },
  );

  test.each(['soap11', 'soap12'] as const)(
    'a PasswordDigest is checked; a replayed nonce or a stale Created is refused (%s)',
    async (binding) => {
      const nonce = randomBytes(16);
      const header = usernameTokenHeader('legacy-ws', digestSecret, { digest: true, nonce });
      expect((await ask(service, binding, { soapHeader: header })).status).toBe(200);
      expect((await ask(service, binding, { soapHeader: header })).status).toBe(401);
      const stale = usernameTokenHeader('legacy-ws', digestSecret, {
        digest: true,
        created: new Date(Date.now() - 600_000),
      });
      expect((await ask(service, binding, { soapHeader: stale })).status).toBe(401);
      // A caller whose secret is kept only as a hash cannot be checked by digest.
      expect(
        (await ask(service, binding, { soapHeader: usernameTokenHeader('app', secret, { digest: true }) })).status,
      ).toBe(401);
    },
  );

  test('a caller recognised by network needs nothing more from its network, and is nobody elsewhere', async () => {
    expect((await ask(service, 'get', { from: '127.0.0.3' })).status).toBe(200);
    expect((await ask(service, 'get', { from: '127.0.0.2' })).status).toBe(401);
  });

  test('a caller recognised by network and secret needs both', async () => {
    const credentials = { headers: { Authorization: '' } };
    const kioskSecret = (await rotateSecret(service.store, 'kiosk', testDigestSealer(), new Date())).secret;
    await service.readCallers();
    credentials.headers.Authorization = basic('kiosk', kioskSecret);
    expect((await ask(service, 'get', { ...credentials, from: '127.0.0.5' })).status).toBe(200);
    expect((await ask(service, 'get', { ...credentials, from: '127.0.0.2' })).status).toBe(401);
    expect((await ask(service, 'get', { from: '127.0.0.5' })).status).toBe(401);
  });

  test('X-Forwarded-For is believed from a trusted proxy only, its rightmost untrusted address', async () => {
    const forwarded = (address: string) => ({ headers: { 'X-Forwarded-For': `10.9.9.9, ${address}` } });
    expect((await ask(service, 'get', { ...forwarded('127.0.0.3'), from: '127.0.0.4' })).status).toBe(200);
    expect((await ask(service, 'get', { ...forwarded('10.1.1.1'), from: '127.0.0.4' })).status).toBe(401);
    // From an untrusted address the header is ignored: 127.0.0.2 is no one, whatever it claims.
    expect((await ask(service, 'get', { ...forwarded('127.0.0.3'), from: '127.0.0.2' })).status).toBe(401);
  });

  test('rotating a secret and revoking a caller take effect within seconds, without a restart', async () => {
    const rotated = (await rotateSecret(service.store, 'app', testDigestSealer(), new Date())).secret;
    // The service finds each change itself (it looks every ACCESS_REFRESH_MS): asked until it has,
    // with the secret that works until then, so that no wrong secret counts against the caller.
    const withSecret = (sent: string) => () => ask(service, 'get', { headers: { Authorization: basic('app', sent) } });
    expect((await eventually(withSecret(secret), (answer) => answer.status !== 200)).status).toBe(401);
    expect((await withSecret(rotated)()).status).toBe(200);
    await revokeCaller(service.store, 'app', new Date());
    expect((await eventually(withSecret(rotated), (answer) => answer.status !== 200)).status).toBe(401);
  });

  test('a refusal is logged with the address, never with the secret', async () => {
    const { refusals, text } = await refusalsLogged(async () => {
      await ask(service, 'json', { headers: { Authorization: basic('legacy-ws', 'the-wrong-secret') } });
    });
    expect(refusals[0]).toMatchObject({ address: '127.0.0.2', operation: 'GetStudentInfoById', binding: 'json' });
    expect(text).not.toContain('the-wrong-secret');
  });
});
