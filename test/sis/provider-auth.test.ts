import { readSisSettings } from '../../src/config/sis-settings';
import { providerAuth } from '../../src/sis/provider-auth';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';

/** The 1.2 bearer token from the token endpoint: kept, renewed before it expires, refetched once on a 401. */
describe('the OAuth 2.0 token', () => {
  let provider: OneRosterProvider;
  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'), { tokenLifetimeSeconds: 3600 });
    await provider.start();
  });
  afterAll(() => provider.close());

  test('is kept until a minute before it expires, then fetched again', async () => {
    let clock = 1_000_000;
    const auth = providerAuth(readSisSettings(provider.settings('1.2')), () => clock);
    const first = await auth.authorization('ignored');
    clock += 3_000_000;
    expect(await auth.authorization('ignored')).toBe(first);
    expect(provider.tokensIssued).toBe(1);
    clock += 560_000;
    const renewed = await auth.authorization('ignored');
    expect(renewed).not.toBe(first);
    expect(provider.tokensIssued).toBe(2);
  });

  test('a refused token is fetched again once; a fresh one refused as well is the client refused', async () => {
    const auth = providerAuth(readSisSettings(provider.settings('1.2')));
    const first = await auth.authorization('ignored');
    expect(auth.refused(first)).toBe(true);
    const second = await auth.authorization('ignored');
    expect(second).not.toBe(first);
    // A page that was sent with the old token, answered after the new one came: asking again may do.
    expect(auth.refused(first)).toBe(true);
    expect(auth.refused(second)).toBe(false);
  });
});
