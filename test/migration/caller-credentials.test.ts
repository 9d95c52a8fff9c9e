import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutCallerCredentials } from '../../src/migration/caller-credentials';
import type { RunningService } from '../../src/service';
import { addTestCaller, basic, REMOTE_TEST_SETTINGS, remoteCall, usernameTokenHeader } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { type LegacyStandIn, startLegacyStandIn, stringDocuments } from '../support/legacy-asmx';
import { startTestService } from '../support/service';

/**
 * Nothing of this service's callers leaves it: a forwarded SOAP call reaches the legacy service
 * without its WS-Security header (PasswordText or PasswordDigest, any prefix, SOAP 1.1 and 1.2),
 * an HTTP credential is never passed on, and the recording of calls keeps none of them.
 */
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const BODY = '<s:Body><GetStudentsNoteType xmlns="http://tempuri.org/"/></s:Body>';

function envelope(namespace: string, header: string): string {
  return `<?xml version="1.0"?>\n<s:Envelope xmlns:s="${namespace}"><s:Header>${header}</s:Header>${BODY}</s:Envelope>`;
}

describe('a SOAP body without the caller credentials', () => {
  const security = (prefix: string) =>
    `<${prefix}:Security xmlns:${prefix}="${WSSE}" s:mustUnderstand="1"><${prefix}:UsernameToken>` +
    `<${prefix}:Username>portal</${prefix}:Username><${prefix}:Password>hunter2</${prefix}:Password>` +
    `<${prefix}:Nonce>bm9uY2Vub25jZW5vbmNlMTY=</${prefix}:Nonce></${prefix}:UsernameToken></${prefix}:Security>`;
  const other = '<Trace xmlns="urn:x">keep é</Trace>';

  test.each([
    ['SOAP 1.1, wsse', SOAP11, 'wsse'],
    ['SOAP 1.2, o (as WCF writes it)', SOAP12, 'o'],
  ])('%s: the Security block is cut, every other byte kept', (_name, namespace, prefix) => {
    const body = Buffer.from(envelope(namespace, `${other}${security(prefix)}`), 'utf8');
    const clean = withoutCallerCredentials(body, 'text/xml; charset=utf-8');
    expect(clean?.body.toString('utf8')).toBe(envelope(namespace, other));
    expect(clean?.contentType).toBe('text/xml; charset=utf-8');
  });

  test('a self-closing block, and a body without one left as it is (the same bytes)', () => {
    const selfClosing = Buffer.from(envelope(SOAP11, `<w:Security xmlns:w="${WSSE}"/>${other}`));
    expect(withoutCallerCredentials(selfClosing, undefined)?.body.toString()).toBe(envelope(SOAP11, other));
    const plain = Buffer.from(envelope(SOAP11, other));
    expect(withoutCallerCredentials(plain, 'text/xml')?.body).toBe(plain);
  });

  test('a UTF-16 body leaves as UTF-8 without the block, and says so', () => {
    const body = Buffer.from(envelope(SOAP11, security('wsse')), 'utf16le');
    const clean = withoutCallerCredentials(body, 'text/xml; charset=utf-16le');
    expect(clean?.body.toString('utf8')).toBe(envelope(SOAP11, ''));
    expect(clean?.contentType).toBe('text/xml; charset=utf-8');
  });

  test('a Security element the parser will not read is cut all the same', () => {
    const broken = Buffer.from(`<s:Envelope xmlns:s="${SOAP11}"><s:Header>${security('wsse')}</s:Header><s:Body>&bad;`);
    expect(withoutCallerCredentials(broken, undefined)?.body.toString()).not.toContain('hunter2');
  });
});

describeEachEngine('forwarded calls carry no credential of this service', ({ freshStoreSettings }) => {
  let legacy: LegacyStandIn;
  let service: RunningService;
  let folder: string;
  const secrets: Record<string, string> = {};
  const recording = () => join(folder, 'calls.jsonl');

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-recording-'));
    legacy = await startLegacyStandIn();
    for (const [key, document] of stringDocuments('GetStudentsNoteType', 'types')) legacy.documents.set(key, document);
    service = await startTestService({
      ...REMOTE_TEST_SETTINGS,
      ...freshStoreSettings(),
      DEMO_DATA: 'off',
      LEGACY_URL: legacy.url,
      ROUTES: 'default=legacy',
      RECORD_FILE: recording(),
      RECORD_LOOPBACK: 'on',
    });
    secrets.text = (await addTestCaller(service.store, { name: 'text', secret: true })) as string;
    secrets.digest = (await addTestCaller(service.store, { name: 'digest', secret: true, wsDigest: true })) as string;
    await service.readCallers();
  });
  afterAll(async () => {
    await service.close();
    await legacy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const noteTypes = (binding: 'soap11' | 'soap12' | 'json', options: Parameters<typeof remoteCall>[5]) =>
    remoteCall(service.url, '/GetNoteType.asmx', 'GetStudentsNoteType', {}, binding, options);

  test('PasswordText and PasswordDigest tokens, SOAP 1.1 and 1.2, and HTTP credentials stay here', async () => {
    const sent = [
      await noteTypes('soap11', { soapHeader: usernameTokenHeader('text', secrets.text) }),
      await noteTypes('soap12', { soapHeader: usernameTokenHeader('digest', secrets.digest, { digest: true }) }),
      await noteTypes('soap11', { headers: { Authorization: basic('text', secrets.text) } }),
      await noteTypes('json', { headers: { Authorization: basic('text', secrets.text), Cookie: 'session=1' } }),
    ];
    expect(sent.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(sent[0].text).toContain('types');
    expect(legacy.requests).toHaveLength(4);
    for (const received of legacy.requests) {
      expect(received.body).not.toMatch(/Security|UsernameToken|Password|Nonce/);
      expect(received.body).not.toContain(secrets.text);
      expect(received.headers.authorization).toBeUndefined();
      expect(received.headers.cookie).toBeUndefined();
    }
    // The legacy service still reads the call: the Body is whole.
    expect(legacy.requests.map((received) => received.operation)).toEqual(Array(4).fill('GetStudentsNoteType'));
  });

  test('the recording keeps the calls without their credentials', async () => {
    await noteTypes('soap11', { soapHeader: usernameTokenHeader('text', secrets.text) });
    // Every call let in is recorded: the four above and this one.
    const lines = await eventually(
      async () => readFileSync(recording(), 'utf8').trim().split('\n'),
      (found) => found.length === 5,
    );
    for (const line of lines) {
      expect(line).not.toMatch(/Security|Password|Nonce|authorization/i);
      expect(line).not.toContain(secrets.text);
    }
    expect(lines.at(-1)).toContain('GetStudentsNoteType');
  });
});
