import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePortBelowEphemeral } from './processes';

/**
 * A throwaway PostgreSQL cluster for tests: initdb and pg_ctl from Debian's packages in a temp
 * folder, listening on a free loopback port, removed again by stop(). As root the server runs as
 * the postgres user, which the package creates. stopServer() and startServer() restart the same
 * cluster on the same port, as an operator's restart of the database does.
 */

export function postgresBinDirectory(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

export interface TestPostgres {
  readonly url: string;
  /** The cluster's data folder (PGDATA), for tests that look at what its files hold. */
  readonly dataDirectory: string;
  /** Stops the server as `pg_ctl stop` does (fast: sessions are ended), keeping its data; resolves once it is down. */
  stopServer(): Promise<void>;
  /** Starts the stopped server again on the same port and data; resolves once it accepts connections. */
  startServer(): Promise<void>;
  /** The running server's main process (the postmaster); its sessions are its children. */
  serverPid(): number;
  /** Stops the server at once and removes the cluster. */
  stop(): void;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDirectory();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed (apt-get install postgresql)');
  const directory = mkdtempSync(join(tmpdir(), 'school-pg-'));
  const dataDirectory = join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(directory, 0o777);
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const run = (program: string, args: string[]) => {
    const result = spawnSync(...command(program, args), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  // Asynchronous, so that a test's load goes on while the server stops and starts.
  const runAsync = async (program: string, args: string[]) => {
    try {
      await promisify(execFile)(...command(program, args), { encoding: 'utf8' });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${program} failed: ${stderr || stdout || String(error)}`);
    }
  };
  run('initdb', ['-D', dataDirectory, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const log = join(directory, 'server.log');
  const argsFor = (port: number) => [
    '-D',
    dataDirectory,
    '-l',
    log,
    '-w',
    '-o',
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ];
  // Another test's server may take the probed port before this one binds it: then another port.
  let port = await freePortBelowEphemeral();
  for (let attempt = 1; ; attempt += 1) {
    try {
      run('pg_ctl', argsFor(port));
      break;
    } catch (error) {
      const taken = existsSync(log) && readFileSync(log, 'utf8').includes('could not create any TCP/IP sockets');
      if (!taken || attempt === 3) throw error;
      port = await freePortBelowEphemeral();
    }
  }
  const startArgs = argsFor(port);
  let serving = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDirectory,
    stopServer: async () => {
      await runAsync('pg_ctl', ['-D', dataDirectory, '-m', 'fast', '-w', 'stop']);
      serving = false;
    },
    startServer: async () => {
      await runAsync('pg_ctl', startArgs);
      serving = true;
    },
    serverPid: () => Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: () => {
      try {
        if (serving) run('pg_ctl', ['-D', dataDirectory, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Creates an empty database in the cluster and returns its URL, so each suite starts clean. */
export function createDatabase(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  execFileSync(join(postgresBinDirectory() as string, 'createdb'), [
    '-h',
    url.hostname,
    '-p',
    url.port,
    '-U',
    'postgres',
    name,
  ]);
  url.pathname = `/${name}`;
  return url.toString();
}
