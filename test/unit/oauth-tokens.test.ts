import { randomBytes } from 'node:crypto';
import { grantedScopes, ONEROSTER_SCOPES, scopeUri, TokenSigner } from '../../src/access/oauth-tokens';
import { grantsOf } from '../../src/access/operation-groups';

/** The provider's tokens: signed, ended, and taken only by the key that signed them; scopes as groups allow. */
describe('OneRoster bearer tokens', () => {
  const key = randomBytes(32);
  const claims = { caller: 'lms', version: 'abc', scopes: [scopeUri('roster.readonly')], expiresAt: 10_000 };

  test('a token reads back as signed until it ends', () => {
    const signer = new TokenSigner(key);
    const token = signer.sign(claims);
    expect(signer.verify(token, 9_999)).toEqual(claims);
    expect(signer.verify(token, 10_000)).toBeUndefined();
  });

  test('a token changed in any way, or signed by another key, is not taken', () => {
    const token = new TokenSigner(key).sign(claims);
    const [prefix, payload, mac] = token.split('.');
    const widened = Buffer.from(JSON.stringify({ c: 'lms', v: 'abc', s: Object.keys(ONEROSTER_SCOPES), x: 10_000 }));
    expect(new TokenSigner(key).verify(`${prefix}.${widened.toString('base64url')}.${mac}`, 0)).toBeUndefined();
    expect(new TokenSigner(key).verify(`${prefix}.${payload}.${mac}x`, 0)).toBeUndefined();
    expect(new TokenSigner(randomBytes(32)).verify(token, 0)).toBeUndefined();
    expect(new TokenSigner(key).verify('x'.repeat(3000), 0)).toBeUndefined();
  });

  test('scopes follow the groups: roster, gradebook, all', () => {
    const roster = grantsOf(['roster']);
    expect(grantedScopes(roster, undefined)).toEqual(
      Object.keys(ONEROSTER_SCOPES).filter((scope) => ONEROSTER_SCOPES[scope] === 'roster'),
    );
    expect(grantedScopes(roster, scopeUri('gradebook.readonly'))).toBeUndefined();
    expect(grantedScopes(roster, 'roster.readonly roster-core.readonly')).toEqual([
      scopeUri('roster.readonly'),
      scopeUri('roster-core.readonly'),
    ]);
    expect(grantedScopes(grantsOf(['all']), undefined)).toEqual(Object.keys(ONEROSTER_SCOPES));
    expect(grantedScopes(grantsOf(['queries', 'GetStudentInfoById']), undefined)).toBeUndefined();
    expect(grantsOf(['all']).grantsGroup('gradebook')).toBe(true);
    expect(grantsOf(['queries']).grantsGroup('roster')).toBe(false);
  });
});
