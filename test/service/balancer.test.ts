import { type Balancer, type NodeState, startBalancer } from '../support/balancer';
import { TEST_OUTBOX_KEY } from '../support/callers';
import { postgresBinDirectory, createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { remoteFetch } from '../support/remote-client';
import { killed, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { envelope11, NS } from '../support/soap';
import { openTestSchool, TEST_SCHOOL } from '../support/stores';
import { describeWithTools } from '../support/tools';

/**
 * Two service nodes, separate processes on their own ports as they would be on two machines,
 * share one PostgreSQL behind Debian's haproxy configured by deploy/haproxy.cfg. Calls go to both;
 * a node killed under constant load costs only the calls it had in flight.
 */

const INFO = '/GetStudentsInformation.asmx';
const CONCURRENT_CALLERS = 4;

/** A call of the load: whether it started once the killed node had gone, and whether it was answered. */
interface CallRecord {
  readonly startedAfterDeath: boolean;
  readonly ok: boolean;
}

async function studentInfo(url: string, id: number): Promise<boolean> {
  try {
    const response = await fetch(`${url}${INFO}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
      body: envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${id}</StudentId></GetStudentInfoById>`),
    });
    const text = await response.text();
    return response.status === 200 && text.includes('<NameAr>');
  } catch {
    return false;
  }
}

const served = (nodes: NodeState[]) => Object.fromEntries(nodes.map((node) => [node.name, node.responses2xx]));

// PostgreSQL is not a command on the PATH: without it the suite is skipped, or under CI it fails in beforeAll.
const describeWithBalancer =
  postgresBinDirectory() !== undefined || process.env.CI === 'true' ? describeWithTools(['haproxy']) : describe.skip;

describeWithBalancer('two nodes on one PostgreSQL behind haproxy (deploy/haproxy.cfg)', () => {
  let postgres: TestPostgres | undefined;
  const nodes: ServiceProcess[] = [];
  let balancer: Balancer | undefined;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const settings = { DATABASE_URL: createDatabase(postgres.url, 'school_balanced') };
    const store = await openTestSchool(settings);
    await store.close();
    for (let index = 0; index < 2; index += 1) {
      nodes.push(
        await startServiceProcess({
          ...settings,
          CONTRACT: 'typed',
          OUTBOX_KEY: TEST_OUTBOX_KEY,
          // The balancer connects from 127.0.0.1; callers it forwards are known by X-Forwarded-For.
          LOCAL_NETWORKS: '127.0.0.1/32',
          TRUSTED_PROXIES: '127.0.0.1/32',
        }),
      );
    }
    balancer = await startBalancer(
      nodes.map((node, index) => ({ name: `node${index + 1}`, address: new URL(node.url).host })),
    );
    await balancer.waitForNodes((states) => states.length === 2 && states.every((node) => node.status === 'UP'));
  });

  afterAll(async () => {
    await balancer?.stop();
    for (const node of nodes) await killed(node.child);
    postgres?.stop();
  });

  test("calls reach both nodes, each knowing the caller's address from X-Forwarded-For", async () => {
    const balanced = balancer as Balancer;
    const before = served(await balanced.nodes());
    for (let id = 1; id <= 20; id += 1) expect(await studentInfo(balanced.url, id)).toBe(true);
    const after = served(await balanced.nodes());
    expect(after.node1 - before.node1).toBeGreaterThanOrEqual(5);
    expect(after.node2 - before.node2).toBeGreaterThanOrEqual(5);

    // From another address the call is not local any more, whichever node takes it.
    const remote = await remoteFetch(`${balanced.url}${INFO}/GetStudentInfoById`, {
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
    const balanced = balancer as Balancer;
    const calls: CallRecord[] = [];
    let inFlight = 0;
    let dying = false;
    let dead = false;
    let exposed = 0;
    let callsAfterDown = 0;
    let nodeDown = false;

    const caller = async (offset: number) => {
      // Bounded: the callers stop once the survivor has answered 100 calls after the balancer saw the death.
      for (let id = offset; calls.length < 5_000 && callsAfterDown < 100; id = (id % TEST_SCHOOL.students) + 1) {
        const startedAfterDeath = dead;
        // A call started between the signal and the process's end may still have reached it.
        if (dying && !dead) exposed += 1;
        inFlight += 1;
        const ok = await studentInfo(balanced.url, id);
        inFlight -= 1;
        calls.push({ startedAfterDeath, ok });
        if (nodeDown) callsAfterDown += 1;
      }
    };
    const load = Promise.all(Array.from({ length: CONCURRENT_CALLERS }, (_, index) => caller(index + 1)));

    while (calls.length < 100) await new Promise((resolve) => setTimeout(resolve, 10));
    // Both in the same turn of the event loop: no call starts between the count and the signal.
    exposed = inFlight;
    dying = true;
    await killed(nodes[1].child);
    dead = true;
    const states = await balanced.waitForNodes((now) => now.find((node) => node.name === 'node2')?.status === 'DOWN');
    nodeDown = true;
    await load;

    const failures = calls.filter((call) => !call.ok);
    expect(failures.filter((call) => call.startedAfterDeath)).toEqual([]);
    expect(failures.length).toBeLessThanOrEqual(exposed);
    expect(calls.filter((call) => call.startedAfterDeath && call.ok).length).toBeGreaterThanOrEqual(100);
    expect(states.find((node) => node.name === 'node1')?.status).toBe('UP');
  });
});
