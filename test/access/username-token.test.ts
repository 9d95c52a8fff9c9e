import { randomBytes } from 'node:crypto';
import type { CallerRegistry } from '../../src/access/caller-registry';
import type { Credentials } from '../../src/access/credentials';
import { nonceBytes } from '../../src/access/username-token';
import { readAccessSettings } from '../../src/config/access-settings';
import { ConfigError } from '../../src/config/readers';
import {
  type SchoolWithCallers,
  openTestRegistry,
  remoteCall,
  startSchoolWithCallers,
  type TestRegistry,
  usernameTokenHeader,
} from '../support/callers';

/**
 * A captured WS-Security UsernameToken cannot be used again: not as sent, not with its nonce
 * spelt another way that decodes to the same bytes, not after the nonce would have been forgotten
 * while the token's Created still holds, and not with a Created far ahead of the clock.
 */
const INFO = '/GetStudentsInformation.asmx';
const SOAP_BINDINGS = ['soap11', 'soap12'] as const;

/** A nonce whose base64 has a '+' and a '/', so that its base64url spelling differs. */
function nonceWithBothSymbols(): Buffer {
  for (;;) {
    const nonce = randomBytes(16);
    const text = nonce.toString('base64');
    if (text.includes('+') && text.includes('/')) return nonce;
  }
}

/** Spellings of the same nonce bytes that lenient Base64 decoders (Node's among them) read alike. */
const RESPELLINGS: ReadonlyArray<readonly [string, (text: string) => string]> = [
  ['a space inside', (text) => `${text.slice(0, 8)} ${text.slice(8)}`],
  ['a space around', (text) => ` ${text} `],
  ['its padding dropped', (text) => text.replace(/=+$/, '')],
  ['its padding shortened', (text) => text.replace(/==$/, '=')],
  ['a trailing !', (text) => `${text}!`],
  ['the base64url alphabet', (text) => text.replaceAll('+', '-').replaceAll('/', '_')],
];

function withNonceText(header: string, text: string): string {
  return header.replace(/<wsse:Nonce>[^<]*<\/wsse:Nonce>/, `<wsse:Nonce>${text}</wsse:Nonce>`);
}

describe('UsernameToken replay', () => {
  let school: SchoolWithCallers;
  let digestSecret: string;
  let secret: string;
  const ask = (binding: (typeof SOAP_BINDINGS)[number], soapHeader: string) =>
    remoteCall(school.service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, binding, { soapHeader });
  beforeAll(async () => {
    school = await startSchoolWithCallers([
      { name: 'legacy-ws', wsDigest: true },
      { name: 'text-ws', secret: true },
    ]);
    ({ 'legacy-ws': digestSecret, 'text-ws': secret } = school.secrets);
  });
  afterAll(() => school.close());

  test.each(SOAP_BINDINGS)(
    'a captured digest token re-spelt in each way is refused with a fault (%s)',
    async (binding) => {
      const nonce = nonceWithBothSymbols();
      const captured = usernameTokenHeader('legacy-ws', digestSecret, { digest: true, nonce });
      expect((await ask(binding, captured)).status).toBe(200);
      for (const [, respell] of RESPELLINGS) {
        const replay = await ask(binding, withNonceText(captured, respell(nonce.toString('base64'))));
        expect(replay.status).toBe(401);
        expect(replay.text).toContain('the credentials were not accepted');
      }
      expect((await ask(binding, captured)).status).toBe(401);
    },
  );

  test.each(SOAP_BINDINGS)('a fresh token with a nonce spelt any other way is refused too (%s)', async (binding) => {
    for (const [label, respell] of RESPELLINGS) {
      const nonce = nonceWithBothSymbols();
      const header = usernameTokenHeader('legacy-ws', digestSecret, { digest: true, nonce });
      const response = await ask(binding, withNonceText(header, respell(nonce.toString('base64'))));
      expect([label, response.status]).toEqual([label, 401]);
    }
    // Too short and too long, though canonical; a PasswordText token's nonce follows the same rule.
    for (const size of [8, 15, 65]) {
      const header = usernameTokenHeader('legacy-ws', digestSecret, { digest: true, nonce: randomBytes(size) });
      expect([size, (await ask(binding, header)).status]).toEqual([size, 401]);
    }
    const textToken = usernameTokenHeader('text-ws', secret, { nonce: randomBytes(16) });
    expect((await ask(binding, textToken)).status).toBe(200);
    expect((await ask(binding, withNonceText(textToken, 'AAAA'))).status).toBe(401);
  });

  test.each(SOAP_BINDINGS)(
    'a Created more than the clock skew ahead is refused, within it taken (%s)',
    async (binding) => {
      const ahead = (seconds: number) =>
        usernameTokenHeader('legacy-ws', digestSecret, {
          digest: true,
          created: new Date(Date.now() + seconds * 1000),
        });
      expect((await ask(binding, ahead(290))).status).toBe(401);
      expect((await ask(binding, ahead(120))).status).toBe(401);
      expect((await ask(binding, ahead(20))).status).toBe(200);
    },
  );
});

describe('how long a nonce is remembered', () => {
  let opened: TestRegistry;
  let now: Date;
  let registry: CallerRegistry;
  let digestSecret: string;
  beforeAll(async () => {
    now = new Date('2026-11-24T10:00:00Z');
    opened = await openTestRegistry([{ name: 'legacy-ws', wsDigest: true }], () => now);
    ({ registry } = opened);
    digestSecret = opened.secrets['legacy-ws'];
  });
  afterAll(() => opened.close());

  /** The token as the header writer makes it, read as the SOAP binding reads it. */
  function token(created: Date): Credentials {
    const header = usernameTokenHeader('legacy-ws', digestSecret, { digest: true, created });
    const field = (name: string) => (new RegExp(`<[a-z]+:${name}[^>]*>([^<]*)<`).exec(header) as RegExpExecArray)[1];
    const fields = { password: field('Password'), nonce: field('Nonce'), created: field('Created') };
    return { kind: 'username-token', name: 'legacy-ws', digest: true, ...fields };
  }

  test('until its Created is out of the window, though the nonce was seen earlier than that', async () => {
    const captured = token(new Date(now.getTime() + 50_000));
    expect((await registry.recognise('10.0.0.1', captured)).kind).toBe('identified');
    // 320 s on the token's Created is 270 s old, still within the 300 s window; the nonce was seen 320 s ago.
    now = new Date(now.getTime() + 320_000);
    await registry.refresh();
    expect(await registry.recognise('10.0.0.1', captured)).toEqual({ kind: 'refused', reason: 'replayed nonce' });
    // Past the window the token is refused for its Created, and its nonce may go.
    now = new Date(now.getTime() + 60_000);
    await registry.refresh();
    expect(await registry.recognise('10.0.0.1', captured)).toMatchObject({ kind: 'refused' });
  });

  test('the clock skew is a bounded setting, 60 s unless set', () => {
    expect(readAccessSettings({}).clockSkewMs).toBe(60_000);
    expect(readAccessSettings({ WS_SECURITY_CLOCK_SKEW_SECONDS: '0' }).clockSkewMs).toBe(0);
    expect(() => readAccessSettings({ WS_SECURITY_CLOCK_SKEW_SECONDS: '301' })).toThrow(ConfigError);
    expect(() => readAccessSettings({ WS_SECURITY_CLOCK_SKEW_SECONDS: '-1' })).toThrow(ConfigError);
  });

  test('a canonical nonce is read, anything else is not', () => {
    const bytes = randomBytes(32);
    expect(nonceBytes(bytes.toString('base64'))).toEqual(bytes);
    // Non-zero padding bits decode to the same bytes as the canonical spelling.
    const sixteen = Buffer.alloc(16, 1).toString('base64');
    expect(nonceBytes(`${sixteen.slice(0, 21)}R==`)).toBeUndefined();
    expect(nonceBytes(`${sixteen}\n`)).toBeUndefined();
    expect(nonceBytes('')).toBeUndefined();
    expect(nonceBytes(randomBytes(64).toString('base64'))).toBeDefined();
    expect(nonceBytes(randomBytes(66).toString('base64'))).toBeUndefined();
  });
});
