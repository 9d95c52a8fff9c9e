import { createHash, randomBytes } from 'node:crypto';
import { revokeCaller, rotateSecret, updateCaller } from '../../src/access/caller-admin';
import { CallerRegistry, type Recognition } from '../../src/access/caller-registry';
import { readAccessSettings } from '../../src/config/access-settings';
import type { Store } from '../../src/store/open-store';
import { allCallers } from '../../src/store/queries/callers';
import { addTestCaller, openTestRegistry, type TestRegistry, testDigestSealer } from '../support/callers';

/**
 * Guessing secrets, on the registry alone: wrong secrets are throttled per caller name and address,
 * a name no caller holds costs the same check as a known one and is throttled the same way, every
 * refusal by the throttle says so, and a rotated secret is let in for its grace and afterwards
 * refused without throttling the new one.
 */
describe('guessing secrets', () => {
  let opened: TestRegistry;
  let store: Store;
  let now: Date;
  let registry: CallerRegistry;
  const secrets: Record<string, string> = {};
  beforeAll(async () => {
    now = new Date();
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString();
    // A CPU share no test here reaches, so that the checks never wait on the gate's budget.
    const settings = readAccessSettings({ SECRET_CHECK_CPU_PERCENT: '400', SECRET_CHECKS_IN_FLIGHT: '4' });
    opened = await openTestRegistry(
      [
        ...['alpha', 'beta', 'gamma', 'delta'].map((name) => ({ name, secret: true })),
        { name: 'lan', networks: ['10.9.0.0/16'] },
        { name: 'ended', secret: true, expires: tomorrow },
      ],
      () => now,
      settings,
    );
    ({ registry, store } = opened);
    Object.assign(secrets, opened.secrets);
  });
  afterAll(() => opened.close());

  const attempt = (address: string, name: string, secret: string) =>
    registry.recognise(address, { kind: 'basic', name, secret }) as Promise<Recognition>;
  const outcome = (recognition: Recognition) =>
    recognition.kind === 'identified'
      ? recognition.identity.name
      : recognition.kind === 'refused'
        ? recognition.reason
        : 'anonymous';

  test("one caller's wrong secrets never refuse another caller's correct secret from the same address", async () => {
    for (let guess = 0; guess < 10; guess += 1) {
      expect(outcome(await attempt('10.4.0.1', 'alpha', `alpha.guess-${guess}`))).toBe('wrong secret');
    }
    expect(outcome(await attempt('10.4.0.1', 'alpha', secrets.alpha))).toMatch(/^throttled: too many wrong secrets/);
    expect(outcome(await attempt('10.4.0.1', 'beta', secrets.beta))).toBe('beta');
    expect(outcome(await attempt('10.4.0.2', 'alpha', secrets.alpha))).toBe('alpha');
  });

  test('a name no caller holds costs a check as a known one does, and is throttled the same way', async () => {
    const checks = () => registry.secretChecks.checks;
    const before = checks();
    expect(outcome(await attempt('10.5.0.1', 'delta', 'delta.wrong'))).toBe('wrong secret');
    expect(checks()).toBe(before + 1);
    for (let guess = 0; guess < 10; guess += 1) {
      expect(outcome(await attempt('10.5.0.1', 'ghost', `ghost.guess-${guess}`))).toBe('no such caller');
    }
    expect(checks()).toBe(before + 11);
    expect(outcome(await attempt('10.5.0.1', 'ghost', 'ghost.again'))).toMatch(/^throttled: too many wrong secrets/);
    expect(checks()).toBe(before + 11);
    // A bearer token names its caller: one of a name no one holds is checked and counted as well.
    const bearer = await registry.recognise('10.5.0.2', { kind: 'bearer', secret: 'phantom.xyz' });
    expect(outcome(bearer)).toBe('no such caller');
    expect(checks()).toBe(before + 12);
  });

  test('a caller without a secret, or expired, is refused only after a check of the same cost', async () => {
    const before = registry.secretChecks.checks;
    expect(outcome(await attempt('10.9.1.1', 'lan', 'lan.something'))).toBe('wrong secret');
    const today = now;
    now = new Date(now.getTime() + 2 * 86_400_000);
    try {
      expect(outcome(await attempt('10.6.0.1', 'ended', secrets.ended))).toBe('caller expired');
    } finally {
      now = today;
    }
    expect(registry.secretChecks.checks).toBe(before + 2);
  });

  test('a rotated secret is let in for its grace, then refused as retired, never throttling the new one', async () => {
    const { secret: renewed } = await rotateSecret(store, 'gamma', testDigestSealer(), new Date(), 3_600_000);
    await registry.refresh();
    expect(outcome(await attempt('10.7.0.1', 'gamma', secrets.gamma))).toBe('gamma');
    expect(outcome(await attempt('10.7.0.1', 'gamma', renewed))).toBe('gamma');
    // The clock of the registry moves on; the store's changes keep the real time, which the registry compares.
    now = new Date(now.getTime() + 2 * 3_600_000);
    for (let call = 0; call < 15; call += 1) {
      expect(outcome(await attempt('10.7.0.1', 'gamma', secrets.gamma))).toBe('retired secret: replaced, grace over');
    }
    // A change of the callers drops every verified secret: both are checked again, from the same address.
    await updateCaller(store, 'delta', { operations: ['queries'] }, new Date());
    await registry.refresh();
    for (let call = 0; call < 15; call += 1) {
      expect(outcome(await attempt('10.7.0.1', 'gamma', secrets.gamma))).toBe('retired secret: replaced, grace over');
    }
    expect(outcome(await attempt('10.7.0.1', 'gamma', renewed))).toBe('gamma');
  });

  test('a rotated digest secret is let in for its grace, then refused as retired', async () => {
    now = new Date();
    const digestSecret = (await addTestCaller(store, { name: 'legacy', wsDigest: true })) as string;
    const { secret: renewed } = await rotateSecret(store, 'legacy', testDigestSealer(), new Date(), 3_600_000);
    await registry.refresh();
    const token = (secret: string) => {
      const nonce = randomBytes(16);
      const created = now.toISOString();
      const password = createHash('sha1')
        .update(Buffer.concat([nonce, Buffer.from(created + secret, 'utf8')]))
        .digest('base64');
      return registry.recognise('10.14.0.1', {
        kind: 'username-token',
        name: 'legacy',
        password,
        digest: true,
        nonce: nonce.toString('base64'),
        created,
      }) as Promise<Recognition>;
    };
    expect(outcome(await token(digestSecret))).toBe('legacy');
    expect(outcome(await token(renewed))).toBe('legacy');
    expect(outcome(await token('legacy.wrong'))).toBe('wrong password');
    const today = now;
    now = new Date(now.getTime() + 2 * 3_600_000);
    try {
      expect(outcome(await token(digestSecret))).toBe('retired secret: replaced, grace over');
      expect(outcome(await token(renewed))).toBe('legacy');
    } finally {
      now = today;
    }
  });

  test('a revoked caller is refused after the same check', async () => {
    await revokeCaller(store, 'beta', new Date());
    await registry.refresh();
    const before = registry.secretChecks.checks;
    expect(outcome(await attempt('10.8.0.1', 'beta', secrets.beta))).toBe('no such caller');
    expect(registry.secretChecks.checks).toBe(before + 1);
  });

  test('a correct secret goes ahead of a flood of wrong ones waiting for the gate', async () => {
    // One check at a time: the first wrong one runs, the rest wait, and the order they end in is the gate's.
    const narrow = await CallerRegistry.open(
      store,
      readAccessSettings({ SECRET_CHECKS_IN_FLIGHT: '1', SECRET_CHECK_CPU_PERCENT: '400' }),
      testDigestSealer(),
      () => now,
    );
    try {
      // A hash made before hints (the hint cut off): its caller goes ahead once let in from the address.
      const [legacy] = (await allCallers(store)).filter((caller) => caller.name === 'delta');
      const hashWithoutHint = (legacy.secret_hash as string).split('$').slice(0, 6).join('$');
      await store.db.updateTable('callers').set({ secret_hash: hashWithoutHint }).where('name', '=', 'delta').execute();
      await narrow.refresh();
      expect(outcome(await narrowAttempt(narrow, '10.12.0.1', 'delta', secrets.delta))).toBe('delta');
      await updateCaller(store, 'alpha', { scope: 'school' }, new Date());
      await narrow.refresh();
      const ended: string[] = [];
      const flood = Array.from({ length: 6 }, (_, index) =>
        narrowAttempt(narrow, `10.11.0.${index}`, `guess-${index}`, 'wrong').then(() => ended.push(`wrong ${index}`)),
      );
      const correct = [
        narrowAttempt(narrow, '10.13.0.1', 'alpha', secrets.alpha).then((recognition) => {
          ended.push(`alpha ${outcome(recognition)}`);
        }),
        narrowAttempt(narrow, '10.12.0.1', 'delta', secrets.delta).then((recognition) => {
          ended.push(`delta ${outcome(recognition)}`);
        }),
      ];
      await Promise.all([...flood, ...correct]);
      expect(ended.slice(0, 3)).toEqual(['wrong 0', 'alpha alpha', 'delta delta']);
    } finally {
      narrow.stop();
    }
  });
});

function narrowAttempt(registry: CallerRegistry, address: string, name: string, secret: string) {
  return registry.recognise(address, { kind: 'basic', name, secret }) as Promise<Recognition>;
}
