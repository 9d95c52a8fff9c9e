import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitForPort } from './processes';

/**
 * Debian's haproxy in front of service nodes on loopback, configured by deploy/haproxy.cfg itself,
 * rendered with the test's ports: what the tests check is the configuration operators deploy.
 */

export const HAPROXY_TEMPLATE = resolve(__dirname, '..', '..', 'deploy', 'haproxy.cfg');
/** The balancer's own answers when no node is ready, as installed beside the configuration. */
export const UNAVAILABLE_ANSWERS = resolve(__dirname, '..', '..', 'deploy', 'unavailable');

/** What the balancer asks each node, as the deployed configuration does: ready, or not (draining, store away). */
export const HEALTH_CHECK_PATH = '/readyz';

export interface BalancedNode {
  readonly name: string;
  /** host:port */
  readonly address: string;
}

export interface RenderSettings {
  readonly listen: string;
  readonly adminSocket: string;
  readonly nodes: readonly BalancedNode[];
  readonly healthCheckPath?: string;
}

/** deploy/haproxy.cfg with its {{...}} replaced, as docs/deployment.md tells operators to. */
export function renderHaproxyConfig(settings: RenderSettings): string {
  const values: Record<string, string> = {
    LISTEN: settings.listen,
    ADMIN_SOCKET: settings.adminSocket,
    HEALTH_CHECK_PATH: settings.healthCheckPath ?? HEALTH_CHECK_PATH,
    UNAVAILABLE: UNAVAILABLE_ANSWERS,
    SERVERS: settings.nodes.map((node) => `    server ${node.name} ${node.address}`).join('\n'),
  };
  const rendered = readFileSync(HAPROXY_TEMPLATE, 'utf8')
    .split('\n')
    // The lines that name a placeholder only to explain it are comments; only the configuration is rendered.
    .map((line) => (line.trimStart().startsWith('#') ? line : line.replace(/{{(\w+)}}/g, (_, name) => values[name])))
    .join('\n');
  // Dropping privileges needs root; a developer running the tests as themselves keeps their own.
  if (process.getuid?.() === 0) return rendered;
  return rendered.replace(/^\s*(user|group|chroot) .*\n/gm, '');
}

/** One node as the balancer sees it, from the runtime API's `show stat`. */
export interface NodeState {
  readonly name: string;
  /** UP, DOWN, or a transition such as "UP 1/2". */
  readonly status: string;
  /** Successful responses the node gave through the balancer. */
  readonly responses2xx: number;
}

export interface Balancer {
  readonly url: string;
  /** haproxy's master process (master-worker mode, as Debian's unit runs it). */
  readonly child: ChildProcess;
  /** The nodes, as the balancer's health checks and counters see them now. */
  nodes(): Promise<NodeState[]>;
  /** Resolves once `accept` holds for the balancer's view of the nodes (polling it); rejects after the time limit. */
  waitForNodes(accept: (nodes: NodeState[]) => boolean, timeoutMs?: number): Promise<NodeState[]>;
  /**
   * Renders the configuration again with these nodes and reloads haproxy as `systemctl reload
   * haproxy` does (SIGUSR2 to the master, which starts a new worker on the same listening sockets);
   * resolves once the new worker answers with exactly these nodes.
   */
  reload(nodes: readonly BalancedNode[]): Promise<NodeState[]>;
  stop(): Promise<void>;
}

function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolveAnswer, reject) => {
    let answer = '';
    const connection = connect(socket, () => connection.end(`${command}\n`));
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.once('end', () => resolveAnswer(answer));
    connection.once('error', reject);
  });
}

function nodeStates(statCsv: string): NodeState[] {
  const [header, ...rows] = statCsv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const column = (fields: string[], name: string) => fields[columns.indexOf(name)];
  return rows
    .map((row) => row.split(','))
    .filter((fields) => column(fields, 'pxname') === 'school_nodes' && column(fields, 'type') === '2')
    .map((fields) => ({
      name: column(fields, 'svname'),
      status: column(fields, 'status'),
      responses2xx: Number(column(fields, 'hrsp_2xx')),
    }));
}

/** Starts haproxy on a free loopback port in front of the nodes, and resolves once it accepts connections. */
export async function startBalancer(nodes: readonly BalancedNode[], healthCheckPath?: string): Promise<Balancer> {
  const folder = mkdtempSync(join(tmpdir(), 'school-haproxy-'));
  const adminSocket = join(folder, 'admin.sock');
  const port = await freePort();
  const config = join(folder, 'haproxy.cfg');
  const writeConfig = (servers: readonly BalancedNode[]) => {
    writeFileSync(
      config,
      renderHaproxyConfig({ listen: `127.0.0.1:${port}`, adminSocket, nodes: servers, healthCheckPath }),
    );
    execFileSync('haproxy', ['-c', '-q', '-f', config]);
  };
  writeConfig(nodes);
  // -W: a master process and its worker, reloaded by SIGUSR2, as Debian's unit runs it;
  // -db: in the foreground, as a child of the test, whatever the configuration says.
  const child = spawn('haproxy', ['-W', '-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, 15_000, 'haproxy');
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${errors}`);
  }
  const nodesNow = async () => nodeStates(await adminCommand(adminSocket, 'show stat'));
  const waitForNodes = async (accept: (nodes: NodeState[]) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    let states: NodeState[] | string = 'not read yet';
    for (;;) {
      try {
        states = await nodesNow();
        if (accept(states)) return states;
      } catch (error) {
        // Between two workers of a reload the socket may not answer for a moment.
        states = `unreadable: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (Date.now() > deadline) throw new Error(`the balancer's nodes are still ${JSON.stringify(states)}\n${errors}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  };
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    nodes: nodesNow,
    waitForNodes,
    reload: (servers) => {
      writeConfig(servers);
      child.kill('SIGUSR2');
      const names = servers.map((node) => node.name).join();
      return waitForNodes((states) => states.map((node) => node.name).join() === names);
    },
    stop,
  };
}
