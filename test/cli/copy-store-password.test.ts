import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArguments, ROOT } from '../support/cli';
import { createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { openTestStore } from '../support/stores';
import { describeOnPostgres } from '../support/tools';

/**
 * The password of `copy-store --to postgres://user:password@…` is read by every user of the machine
 * in `ps` while the command runs: the command hides it there, warns, takes the URL from a file or
 * COPY_STORE_TO instead, and never prints it.
 */
const SECRET = 'Pg-pass-7c1e9d';

interface Finished {
  readonly status: number | null;
  readonly output: string;
}

/** `school-service copy-store ARGS` on a fresh SQLite store; `whileRunning` sees its process id first. */
async function copyStore(
  args: string[],
  env: Record<string, string> = {},
  whileRunning?: (pid: number) => Promise<void>,
): Promise<Finished> {
  const folder = mkdtempSync(join(tmpdir(), 'copy-store-password-'));
  await (await openTestStore({ DATA_DIR: folder })).close();
  try {
    const child = spawn(process.execPath, cliArguments('copy-store', ...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '', COPY_STORE_TO: '', LOG_LEVEL: 'debug', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (whileRunning) {
      try {
        await whileRunning(child.pid as number);
      } finally {
        child.kill('SIGKILL');
      }
    }
    return { status: await exited, output };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('copy-store and the target store password', () => {
  let silent: Server;
  let port: number;
  let connected: Promise<Socket>;
  beforeEach(async () => {
    // A database that takes the connection and never answers: the command waits there while `ps` is read.
    let arrived: (socket: Socket) => void = () => {};
    connected = new Promise((resolve) => {
      arrived = resolve;
    });
    silent = createServer((socket) => arrived(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as { port: number }).port;
  });
  afterEach(() => new Promise<void>((resolve) => silent.close(() => resolve())));

  test('on the command line, it is hidden from the process list while the command runs; a warning', async () => {
    let cmdline = '';
    const finished = await copyStore(
      ['--to', `postgres://school:${SECRET}@127.0.0.1:${port}/school`],
      {},
      async (pid) => {
        const socket = await connected;
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        socket.destroy();
      },
    );
    expect(cmdline).toContain(`postgres://school:***@127.0.0.1:${port}/school`);
    expect(cmdline).not.toContain(SECRET);
    expect(finished.output).toContain("Warning: --to's password could be read in the process list");
    expect(finished.output).not.toContain(SECRET);
  });

  test.each([
    ['--to-file', 'file'],
    ['COPY_STORE_TO', 'env'],
  ])('from %s, it is on no command line and in no output, even when the store cannot be reached', async (_, how) => {
    // A port nobody listens on: the command fails with the store's address.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const url = `postgres://school:${SECRET}@127.0.0.1:${closed}/school`;
    const folder = mkdtempSync(join(tmpdir(), 'copy-store-url-'));
    const file = join(folder, 'target-url');
    writeFileSync(file, `${url}\n`, { mode: 0o600 });
    try {
      const finished =
        how === 'file' ? await copyStore(['--to-file', file]) : await copyStore([], { COPY_STORE_TO: url });
      expect(finished.status).not.toBe(0);
      expect(finished.output).toContain(`127.0.0.1:${closed}`);
      expect(finished.output).not.toContain(SECRET);
      expect(finished.output).not.toContain('Warning');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('two sources of the target, or none, are a usage error', async () => {
    const both = await copyStore(['--to', 'sqlite:/tmp/x'], { COPY_STORE_TO: 'sqlite:/tmp/y' });
    expect(both.status).toBe(2);
    expect(both.output).toContain('name the empty store once');
    const none = await copyStore([]);
    expect(none.status).toBe(2);
  });
});

describeOnPostgres()('copy-store into PostgreSQL with the URL from the environment', () => {
  let cluster: TestPostgres;
  beforeAll(async () => {
    cluster = await startTestPostgres();
  });
  afterAll(() => cluster.stop());

  test('copies, and prints the store without its password', async () => {
    const url = new URL(createDatabase(cluster.url, 'copy_from_env'));
    // The test cluster trusts loopback: a password given is not needed, but it is carried all the same.
    url.password = SECRET;
    const finished = await copyStore([], { COPY_STORE_TO: url.href });
    expect(finished.status).toBe(0);
    expect(finished.output).toMatch(/Copied .* to postgres:\/\/.*copy_from_env/);
    expect(finished.output).not.toContain(SECRET);
  });
});
