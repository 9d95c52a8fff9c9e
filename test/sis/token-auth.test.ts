import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSisSettings, TOKEN_AUTH_METHODS } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { openTestStore } from '../support/stores';
import { SYNC_TEST_OPTIONS } from '../support/sync-options';

/**
 * SIS_TOKEN_AUTH against token endpoints as strict as real ones: each method is accepted by the
 * endpoint that reads it (and by a lenient one), refused by the others with a message that says
 * what was sent and which settings to try.
 */

const CLIENT = { clientId: 'sis-client', clientSecret: 'p@ss word+1-x' };
const options = SYNC_TEST_OPTIONS;
const SENT = {
  basic: 'as HTTP Basic, plain',
  'basic-encoded': 'as HTTP Basic, form-encoded first',
  post: 'in the form body',
};

describe.each(['lenient', ...TOKEN_AUTH_METHODS] as const)('a token endpoint reading %s credentials', (mode) => {
  let provider: OneRosterProvider;
  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'), { ...CLIENT, tokenAuth: mode });
    await provider.start();
  });
  afterAll(() => provider.close());

  test.each(TOKEN_AUTH_METHODS)('and a 1.2 sync sending them by SIS_TOKEN_AUTH=%s', async (method) => {
    const store = await openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'token-auth-')) });
    try {
      const sis = readSisSettings({ ...provider.settings('1.2'), SIS_TOKEN_AUTH: method });
      const refusalsBefore = provider.refusals;
      const outcome = await syncSchool(store, sis, options);
      if (mode === 'lenient' || mode === method) {
        expect(outcome).toMatchObject({ outcome: 'done', message: '' });
        expect(provider.refusals).toBe(refusalsBefore);
        return;
      }
      expect(outcome.outcome).toBe('failed');
      const others = TOKEN_AUTH_METHODS.filter((other) => other !== method).join(' or ');
      expect(outcome.message).toBe(
        `the token endpoint ${provider.origin}/oauth/token refused the client "sis-client" (401 invalid_client); ` +
          `they were sent ${SENT[method]} (SIS_TOKEN_AUTH=${method}): ` +
          `if the id and secret are right, try SIS_TOKEN_AUTH=${others}`,
      );
      expect(outcome.message).not.toContain(CLIENT.clientSecret);
      expect(provider.refusals).toBe(refusalsBefore + 1);
    } finally {
      await store.close();
    }
  });
});

describe('SIS_TOKEN_AUTH', () => {
  const base = {
    SIS_URL: 'https://sis.example.org/ims/oneroster/rostering/v1p2',
    SIS_TOKEN_URL: 'https://sis.example.org/oauth/token',
    SIS_CLIENT_ID: 'sis-client',
    SIS_CLIENT_SECRET: 'secret',
  };

  test('is basic unless set, and one of the three methods', () => {
    expect(readSisSettings(base).tokenAuth).toBe('basic');
    expect(readSisSettings({ ...base, SIS_TOKEN_AUTH: 'POST' }).tokenAuth).toBe('post');
    expect(() => readSisSettings({ ...base, SIS_TOKEN_AUTH: 'digest' })).toThrow(
      'SIS_TOKEN_AUTH must be basic, basic-encoded, post, got "digest"',
    );
  });

  test('basic cannot send a client id holding a colon; the others can', () => {
    const colon = { ...base, SIS_CLIENT_ID: 'district:42' };
    expect(() => readSisSettings(colon)).toThrow(/SIS_CLIENT_ID holds a colon, .* use basic-encoded or post/);
    expect(readSisSettings({ ...colon, SIS_TOKEN_AUTH: 'basic-encoded' }).clientId).toBe('district:42');
  });
});
