import type { CallerRegistry } from '../../src/access/caller-registry';
import { addTestCaller, openTestRegistry, type TestRegistry } from '../support/callers';

/** The registry on its own: who it recognises, and what a guess costs. */
describe('the caller registry', () => {
  let opened: TestRegistry;
  let now: Date;
  let registry: CallerRegistry;
  let secret: string;
  beforeAll(async () => {
    now = new Date('2026-11-24T10:00:05Z');
    opened = await openTestRegistry(
      [
        { name: 'app', secret: true, expires: '2099-01-01' },
        { name: 'office', networks: ['10.1.0.0/16'], operations: ['GetStudentInfoById'] },
      ],
      () => now,
    );
    ({ registry } = opened);
    secret = opened.secrets.app;
  });
  afterAll(() => opened.close());

  test('tells a local, a network, a secret-holding and an unknown caller apart', async () => {
    const name = async (address: string, credentials?: { kind: 'basic'; name: string; secret: string }) => {
      const recognition = await registry.recognise(address, credentials);
      return recognition.kind === 'identified' ? recognition.identity.name : recognition.kind;
    };
    expect(await name('127.0.0.1')).toBe('local');
    expect(await name('::ffff:127.0.0.9')).toBe('local');
    expect(await name('10.1.2.3')).toBe('office');
    expect(await name('10.2.0.1')).toBe('anonymous');
    expect(await name('10.2.0.1', { kind: 'basic', name: 'app', secret })).toBe('app');
    expect(await name('10.2.0.1', { kind: 'basic', name: 'nobody', secret })).toBe('refused');
  });

  test('checks ten wrong secrets a minute per name and address: past them even its right one waits', async () => {
    const guarded = (await addTestCaller(opened.store, { name: 'guarded', secret: true })) as string;
    await registry.refresh();
    const attempt = (guess: string) =>
      registry.recognise('10.3.0.1', { kind: 'basic', name: 'guarded', secret: guess });
    for (let guess = 0; guess < 10; guess += 1) expect((await attempt(`guess-${guess}`)).kind).toBe('refused');
    expect((await attempt(guarded)).kind).toBe('refused');
    now = new Date(now.getTime() + 60_000);
    expect((await attempt(guarded)).kind).toBe('identified');
  });
});
