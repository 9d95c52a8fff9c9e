import { rotateSecret } from '../../src/access/caller-admin';
import { addTestCaller, basic, REMOTE_TEST_SETTINGS, remoteCall, testDigestSealer } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { type ServiceProcess, startServiceProcess } from '../support/service-process';
import { withTestStore } from '../support/stores';

/**
 * An old secret after `callers rotate --grace` ends, tried as an attacker holding it would: on two
 * nodes of one store, one started before the rotation that had let the old secret in (and so holds
 * it as verified), one started after. Both let it in during the grace and refuse it after, while
 * the new secret goes on working on both.
 */
const INFO = '/GetStudentsInformation.asmx';
const GRACE_MS = 6_000;

describeEachEngine('a rotated secret after its grace', (engine) => {
  const nodes: ServiceProcess[] = [];
  afterEach(async () => {
    for (const node of nodes.splice(0)) {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });

  test('is refused on every node, also by one that started before the rotation', async () => {
    const store = engine.freshStoreSettings();
    const old = (await withTestStore(store, (session) =>
      addTestCaller(session, { name: 'app', secret: true }),
    )) as string;
    const settings = { ...REMOTE_TEST_SETTINGS, ...store, DEMO_DATA: 'off', DELIVERY_WORKER: 'off' };
    const status = async (node: ServiceProcess, secret: string) =>
      (
        await remoteCall(node.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, 'get', {
          headers: { Authorization: basic('app', secret) },
        })
      ).status;

    const before = await startServiceProcess(settings);
    nodes.push(before);
    expect(await status(before, old)).toBe(200);
    const { secret: renewed } = await withTestStore(store, (session) =>
      rotateSecret(session, 'app', testDigestSealer(), new Date(), GRACE_MS),
    );
    const graceEnds = Date.now() + GRACE_MS;
    // Within the grace (the callers are read again every 200 ms), the node that knew the old secret lets both in.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([await status(before, old), await status(before, renewed)]).toEqual([200, 200]);
    const after = await startServiceProcess(settings);
    nodes.push(after);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, graceEnds - Date.now()) + 500));
    expect([await status(before, old), await status(after, old)]).toEqual([401, 401]);
    expect([await status(before, renewed), await status(after, renewed)]).toEqual([200, 200]);
  });
});
