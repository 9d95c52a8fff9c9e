import { BalancedLoad, CLIENT_TIMEOUT_MS, type LoadCall, type PushDevice, pushNumber } from '../support/balanced-load';
import { type BalancedNode, type Balancer, type NodeState, startBalancer } from '../support/balancer';
import { TEST_OUTBOX_KEY } from '../support/callers';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { remoteFetch } from '../support/remote-client';
import { killed, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { envelope11, NS } from '../support/soap';
import { openTestSchool, openTestStore } from '../support/stores';
import { describeWithTools } from '../support/tools';
import { freePort } from '../support/processes';

/**
 * Service nodes, separate processes on their own ports as they would be on separate machines,
 * share one PostgreSQL behind Debian's haproxy configured by deploy/haproxy.cfg. Under constant
 * load (reads, and pushes delivered through the outbox to a fake gateway): a node killed costs
 * only the calls it had in flight; PostgreSQL restarted costs the calls of the outage, each
 * answered at once with a Server fault, and the nodes recover by themselves; a fourth node added
 * takes calls once ready; a rolling restart of every node costs nothing. Every push the service
 * accepted reaches the gateway once, and none it refused.
 */

const INFO = '/GetStudentsInformation.asmx';
/** An answer within this time is not a hang: well under the callers' own time limit. */
const NOT_A_HANG_MS = 5_000;
/** Past the balancer's time to take a draining node out: a check a second, two failures. */
const SHUTDOWN_DELAY_MS = 3_000;

async function studentInfo(url: string, id: number): Promise<boolean> {
  const response = await fetch(`${url}${INFO}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    body: envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${id}</StudentId></GetStudentInfoById>`),
  });
  return response.status === 200 && (await response.text()).includes('<NameAr>');
}

const served = (nodes: NodeState[]) => Object.fromEntries(nodes.map((node) => [node.name, node.responses2xx]));
const stateOf = (nodes: NodeState[], name: string) => nodes.find((node) => node.name === name)?.status ?? 'absent';
const allUp = (names: readonly string[]) => (nodes: NodeState[]) =>
  names.every((name) => stateOf(nodes, name) === 'UP');
const notOk = (calls: LoadCall[]) => calls.filter((call) => call.outcome !== 'ok');
const details = (calls: LoadCall[]) =>
  calls.map((call) => `#${call.seq} ${call.kind} at ${new Date(call.startedAt).toISOString()}: ${call.detail}`);

async function readiness(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
  return { status: response.status, text: await response.text() };
}

/** One node of the deployment: its name at the balancer, its port (kept across restarts), its process. */
interface Node {
  readonly name: string;
  readonly port: number;
  process: ServiceProcess;
}

describeWithTools(['haproxy'], { postgres: true })(
  'nodes on one PostgreSQL behind haproxy (deploy/haproxy.cfg)',
  () => {
    let postgres: TestPostgres | undefined;
    let gateway: FakeGateway | undefined;
    let balancer: Balancer | undefined;
    let load: BalancedLoad | undefined;
    let databaseUrl = '';
    const nodes: Node[] = [];
    /** Gateway requests received before the killed node's death was seen (see the last test). */
    let receivedBeforeDeath = 0;

    const nodeSettings = (name: string, port: number): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      CONTRACT: 'typed',
      OUTBOX_KEY: TEST_OUTBOX_KEY,
      // The balancer connects from 127.0.0.1; callers it forwards are known by X-Forwarded-For.
      LOCAL_NETWORKS: '127.0.0.1/32',
      TRUSTED_PROXIES: '127.0.0.1/32',
      // Each node sends to a path of its own, so that the gateway can tell which node sent what.
      PUSH_GATEWAY_URL: `${(gateway as FakeGateway).url}/${name}/send`,
      GATEWAY_TIMEOUT_MS: '2000',
      DELIVERY_POLL_MS: '250',
      // Long enough to outlast the PostgreSQL restart; what the killed node held is sent again after it.
      DELIVERY_LEASE_MS: '15000',
      PUSH_PER_SENDER_PER_MINUTE: '1000000',
      PUSH_PER_CALLER_PER_MINUTE: '1000000',
      PUSH_PER_DEVICE_PER_MINUTE: '1000000',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    });
    const startNode = async (name: string, port: number) => startServiceProcess(nodeSettings(name, port));
    const balanced = (): BalancedNode[] =>
      nodes.map((node) => ({ name: node.name, address: `127.0.0.1:${node.port}` }));
    const names = () => nodes.map((node) => node.name);

    beforeAll(async () => {
      postgres = await startTestPostgres();
      gateway = await startFakeGateway();
      databaseUrl = createDatabase(postgres.url, 'school_balanced');
      const store = await openTestSchool({ DATABASE_URL: databaseUrl });
      await store.close();
      const ports = [await freePort(), await freePort(), await freePort()];
      const started = ports.map(async (port, index) => {
        const name = `node${index + 1}`;
        return { name, port, process: await startNode(name, port) };
      });
      nodes.push(...(await Promise.all(started)));
      balancer = await startBalancer(balanced());
      await balancer.waitForNodes(allUp(names()));
    });

    afterAll(async () => {
      await load?.stop();
      await balancer?.stop();
      for (const node of nodes) await killed(node.process.child);
      await gateway?.close();
      postgres?.stop();
    });

    test("calls reach every node, each knowing the caller's address from X-Forwarded-For", async () => {
      const haproxy = balancer as Balancer;
      const before = served(await haproxy.nodes());
      for (let id = 1; id <= 30; id += 1) expect(await studentInfo(haproxy.url, id)).toBe(true);
      const after = served(await haproxy.nodes());
      for (const name of names()) expect(after[name] - before[name]).toBeGreaterThanOrEqual(5);

      // From another address the call is not local any more, whichever node takes it.
      const remote = await remoteFetch(`${haproxy.url}${INFO}/GetStudentInfoById`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"StudentId":"5"}',
      });
      expect([remote.status, JSON.parse(remote.text).Message]).toEqual([
        403,
        expect.stringContaining('127.0.0.2 may not call GetStudentInfoById'),
      ]);
    });

    test('a node killed under constant load: only the calls in flight on it fail', async () => {
      const haproxy = balancer as Balancer;
      const store = await openTestStore({ DATABASE_URL: databaseUrl });
      const devices: PushDevice[] = (
        await store.db
          .selectFrom('devices')
          .select(['application_id as applicationId', 'device_id as deviceId'])
          .where('enabled', '=', 1)
          .orderBy('id')
          .limit(40)
          .execute()
      ).map((device) => ({ applicationId: device.applicationId, deviceId: device.deviceId }));
      await store.close();
      load = new BalancedLoad(haproxy.url, devices);
      const running = load;
      running.start();
      await running.answered(100);

      const victim = nodes[1];
      // In the same turn of the event loop: no call starts between the count and the signal.
      const exposed = running.inFlight();
      const signalled = running.mark();
      await killed(victim.process.child);
      // A call started between the signal and the process's end may still have reached it.
      const dead = running.mark();
      exposed.push(...running.calls.slice(signalled, dead));
      await haproxy.waitForNodes((states) => stateOf(states, victim.name).startsWith('DOWN'));
      receivedBeforeDeath = (gateway as FakeGateway).received.length;
      await running.answered(100);

      // Started again on its port, as systemd's Restart= would: the balancer takes it back.
      victim.process = await startNode(victim.name, victim.port);
      await haproxy.waitForNodes(allUp(names()));
      await running.answered(50);

      const failed = notOk(await running.since(exposed[0]?.seq ?? signalled));
      expect(details(failed.filter((call) => !exposed.includes(call)))).toEqual([]);
      expect(failed.length).toBeLessThanOrEqual(exposed.length);
      expect((await running.since(dead)).length).toBeGreaterThanOrEqual(150);
    });

    test('PostgreSQL restarted under load: Server faults at once, then every node recovers by itself', async () => {
      const haproxy = balancer as Balancer;
      const cluster = postgres as TestPostgres;
      const running = load as BalancedLoad;
      const pids = nodes.map((node) => node.process.child.pid);
      const before = running.mark();

      await cluster.stopServer();
      const down = running.mark();
      for (const node of nodes) {
        const ready = await readiness(node.process.url);
        expect([ready.status, ready.text]).toEqual([503, expect.stringMatching(/^store unreachable: /)]);
      }
      // Until the balancer has taken every node out, and a while after: it answers for them then.
      await haproxy.waitForNodes((states) => states.every((node) => node.status.startsWith('DOWN')));
      await running.answered(20);
      const up = running.mark();
      await cluster.startServer();
      const restarted = Date.now();

      // The balancer's checks of /readyz see every node ready again.
      await haproxy.waitForNodes(allUp(names()));
      const recovered = running.mark();
      for (const node of nodes) expect(await readiness(node.process.url)).toEqual({ status: 200, text: 'ready\n' });
      await running.answered(100);

      const outage = await running.since(before, recovered);
      // No call hung, or went without a SOAP answer: each was answered, with its result or a Server fault, at once.
      expect(details(outage.filter((call) => call.outcome === 'failed'))).toEqual([]);
      expect(outage.filter((call) => call.endedAt - call.startedAt >= NOT_A_HANG_MS).map((call) => call.seq)).toEqual(
        [],
      );
      // While the store was down, none could succeed.
      const whileDown = (await running.since(down, up)).filter((call) => call.endedAt < restarted);
      expect(whileDown.length).toBeGreaterThanOrEqual(20);
      expect(details(whileDown.filter((call) => call.outcome !== 'fault'))).toEqual([]);
      // Faults from the nodes (their store refused) and from the balancer (no node ready), alike on the wire.
      expect(whileDown.some((call) => call.detail.includes('the failure has been logged'))).toBe(true);
      expect(whileDown.some((call) => call.detail.includes('not available at the moment'))).toBe(true);
      // Recovered by themselves: the same processes answer again.
      expect(details(notOk(await running.since(recovered)))).toEqual([]);
      expect(nodes.map((node) => node.process.child.pid)).toEqual(pids);
      expect(nodes.every((node) => node.process.child.exitCode === null)).toBe(true);
    });

    test('a fourth node added by a reload of haproxy takes calls once it is ready', async () => {
      const haproxy = balancer as Balancer;
      const running = load as BalancedLoad;
      const before = running.mark();
      const port = await freePort();
      const fourth = { name: 'node4', address: `127.0.0.1:${port}` };

      // Named before it runs: the balancer finds it down and sends it nothing.
      await haproxy.reload([...balanced(), fourth]);
      await haproxy.waitForNodes((states) => stateOf(states, 'node4').startsWith('DOWN'));
      await running.answered(50);
      expect(served(await haproxy.nodes()).node4).toBe(0);

      nodes.push({ name: 'node4', port, process: await startNode('node4', port) });
      await haproxy.waitForNodes(allUp(names()));
      const ready = served(await haproxy.nodes()).node4;
      await running.answered(200);

      expect(served(await haproxy.nodes()).node4 - ready).toBeGreaterThanOrEqual(20);
      expect(details(notOk(await running.since(before)))).toEqual([]);
    });

    test('a rolling restart of every node under constant load loses no call', async () => {
      const haproxy = balancer as Balancer;
      const running = load as BalancedLoad;
      const before = running.mark();

      for (const node of nodes) {
        const old = node.process;
        old.child.kill('SIGTERM');
        // Its /readyz answers 503 at once; the balancer takes it out before it stops taking connections.
        await haproxy.waitForNodes((states) => stateOf(states, node.name).startsWith('DOWN'));
        expect(await old.exited).toBe(0);
        node.process = await startNode(node.name, node.port);
        await haproxy.waitForNodes(allUp(names()));
        await running.answered(20);
      }
      await running.answered(100);

      expect(details(notOk(await running.since(before)))).toEqual([]);
      expect((await running.since(before)).length).toBeGreaterThanOrEqual(200);
    }, 240_000);

    test('every push the service accepted reached the gateway once; none it refused did', async () => {
      const running = load as BalancedLoad;
      await running.stop();
      const pushes = running.calls.filter((call) => call.kind === 'push');
      const accepted = pushes.filter((call) => call.outcome === 'ok').map((call) => call.push as number);
      const refused = pushes.filter((call) => call.outcome === 'fault').map((call) => call.push as number);
      // No answer (the killed node's calls in flight): the push may or may not have been queued.
      const unknown = new Set(pushes.filter((call) => call.outcome === 'failed').map((call) => call.push as number));

      // Everything queued is sent, those the killed node held once their lease ran out.
      const store = await openTestStore({ DATABASE_URL: databaseUrl });
      try {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const waiting = await store.db
            .selectFrom('outbox_messages')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('state', 'in', ['queued', 'retrying'])
            .executeTakeFirstOrThrow();
          if (Number(waiting.count) === 0) break;
          if (Date.now() > deadline) throw new Error(`${waiting.count} messages still waiting`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        await store.close();
      }

      const copies = new Map<number, { index: number; url: string; key: unknown }[]>();
      (gateway as FakeGateway).received.forEach((request, index) => {
        const notes = (JSON.parse(request.body) as { message: { notification: { body: string } } }).message.notification
          .body;
        const push = pushNumber(notes) as number;
        const key = request.headers['idempotency-key'];
        copies.set(push, [...(copies.get(push) ?? []), { index, url: request.url, key }]);
      });
      // The one case a gateway sees a message twice: the killed node had handed it over, and died
      // before it could write so; once its lease ran out another node sent it again. Both copies carry
      // the message's Idempotency-Key, so a gateway that honours it delivers the message once.
      const handedOverByTheDead = (sent: { index: number; url: string; key: unknown }[]) =>
        sent.length === 2 &&
        typeof sent[0].key === 'string' &&
        sent[1].key === sent[0].key &&
        sent[0].index < receivedBeforeDeath &&
        sent[0].url === `/${nodes[1].name}/send`;
      const sentTwice = [...copies].filter(([, sent]) => sent.length > 1 && !handedOverByTheDead(sent));

      expect(accepted.length).toBeGreaterThanOrEqual(100);
      expect(refused.length).toBeGreaterThan(0);
      expect(accepted.filter((push) => !copies.has(push))).toEqual([]);
      expect(refused.filter((push) => copies.has(push))).toEqual([]);
      expect(sentTwice).toEqual([]);
      expect([...copies.keys()].filter((push) => !accepted.includes(push) && !unknown.has(push))).toEqual([]);
    });
  },
);
