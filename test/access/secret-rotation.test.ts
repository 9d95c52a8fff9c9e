import { rotateSecret } from '../../src/access/caller-admin';
import type { RunningService } from '../../src/service';
import {
  addTestCaller,
  basic,
  type SchoolWithCallers,
  refusalsLogged,
  remoteCall,
  startSchoolWithCallers,
  testDigestSealer,
} from '../support/callers';

/**
 * Secrets on the wire, from a simulated remote address (127.0.0.2) to a real port: a client still
 * sending a replaced secret beside the client with the new one and a second caller on the same
 * host; wrong secrets throttled per caller name and address; names no caller holds throttled the
 * same way; and every refusal by the throttle logged as throttled, never as a wrong secret.
 */
const INFO = '/GetStudentsInformation.asmx';
const HOST = '127.0.0.2';

/**
 * The service's clock, held in the middle of a minute, so that no count of wrong secrets starts
 * again mid-test; ten minutes ahead, so that a rotation with no grace (made at the real time) is over.
 */
const PINNED = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 630_000);

describe('secrets from a host several callers share', () => {
  let school: SchoolWithCallers;
  let service: RunningService;
  const secrets: Record<string, string> = {};
  beforeAll(async () => {
    const callers = ['app', 'portal', 'kiosk', 'booth'].map((name) => ({ name, secret: true }));
    school = await startSchoolWithCallers(callers, {}, { now: () => PINNED });
    service = school.service;
    Object.assign(secrets, school.secrets);
  });
  afterAll(() => school.close());

  const ask = (name: string, secret: string, from = HOST) =>
    remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, 'get', {
      from,
      headers: { Authorization: basic(name, secret) },
    });

  /** The reasons of the refusals logged while `work` runs, in order. */
  const refusalReasons = async (work: () => Promise<void>) =>
    (await refusalsLogged(work)).refusals.map((refusal) => refusal.reason);

  test('in a grace period a client sending the old secret, the new one and another caller are let in', async () => {
    const { secret: renewed } = await rotateSecret(service.store, 'app', testDigestSealer(), new Date(), 86_400_000);
    await service.readCallers();
    const statuses: number[] = [];
    // More calls with the old secret than the throttle would count as wrong ones, interleaved with the new.
    for (let call = 0; call < 12; call += 1) {
      statuses.push((await ask('app', secrets.app)).status, (await ask('app', renewed)).status);
    }
    statuses.push((await ask('portal', secrets.portal)).status);
    expect(statuses).toEqual(Array(25).fill(200));
    secrets.app = renewed;
  });

  test('after the grace a client with the old secret is refused as retired, never delaying the new one', async () => {
    const stale = secrets.kiosk;
    const { secret: renewed } = await rotateSecret(service.store, 'kiosk', testDigestSealer(), new Date(), 0);
    await service.readCallers();
    const reasons = await refusalReasons(async () => {
      for (let call = 0; call < 15; call += 1) expect((await ask('kiosk', stale)).status).toBe(401);
      // The first call with the new secret since the change is checked, not taken from memory.
      expect((await ask('kiosk', renewed)).status).toBe(200);
    });
    expect(reasons).toEqual(Array(15).fill('retired secret: replaced, grace over'));
    secrets.kiosk = renewed;
  });

  test("one caller's wrong secrets throttle it from that address alone, and the log says throttled", async () => {
    const reasons = await refusalReasons(async () => {
      // A caller whose secret no call has sent yet, so none is remembered: every secret is checked.
      for (let guess = 0; guess < 10; guess += 1) {
        expect((await ask('booth', `booth.guess-${guess}`)).status).toBe(401);
      }
      expect((await ask('booth', secrets.booth)).status).toBe(401);
      // Another caller's correct secret from the same host is let in.
      expect((await ask('portal', secrets.portal)).status).toBe(200);
    });
    expect(reasons).toEqual([
      ...Array(10).fill('wrong secret'),
      'throttled: too many wrong secrets for this caller from this address this minute',
    ]);
    // A change of the callers drops the secrets verified so far: the next are checked, from the same host.
    await addTestCaller(service.store, { name: 'desk', networks: ['10.0.0.0/8'] });
    await service.readCallers();
    expect((await ask('app', secrets.app)).status).toBe(200);
    expect((await ask('kiosk', secrets.kiosk)).status).toBe(200);
    expect((await ask('portal', secrets.portal, '127.0.0.3')).status).toBe(200);
  });

  test('a name no caller holds is checked and throttled as a known one is', async () => {
    const reasons = await refusalReasons(async () => {
      for (let guess = 0; guess < 11; guess += 1) expect((await ask('ghost', `ghost.${guess}`)).status).toBe(401);
    });
    expect(reasons).toEqual([
      ...Array(10).fill('no such caller'),
      'throttled: too many wrong secrets for this caller from this address this minute',
    ]);
  });
});
