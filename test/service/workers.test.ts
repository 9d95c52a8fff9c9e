import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodyOf, rawRequest, statusOf } from '../support/raw-http';
import { isRunning, killed, listeningPids, startServiceProcess, type ServiceProcess } from '../support/service-process';

/**
 * WORKERS=n runs n processes behind one port (node:cluster). Each call here opens a connection of
 * its own (Connection: close), so that it goes to whichever worker the cluster hands it to.
 */

async function noteTypes(url: string): Promise<{ status: number; body: string }> {
  const { host } = new URL(url);
  const response = await rawRequest(
    url,
    `GET /GetNoteType.asmx/GetStudentsNoteType HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
  );
  return { status: statusOf(response), body: bodyOf(response) };
}

describe('WORKERS: several processes serving one port', () => {
  let folder: string;
  let service: ServiceProcess | undefined;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-workers-'));
  });

  afterEach(async () => {
    if (service) await killed(service.child);
    for (const pid of service ? listeningPids(service) : []) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    service = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  test(
    'two workers share the port and one demo school; ' + 'a killed worker is replaced; SIGTERM stops them all',
    async () => {
      service = await startServiceProcess({ DATA_DIR: folder, CONTRACT: 'typed', WORKERS: '2' }, 'workers listening');
      const primary = service.child.pid as number;
      const [first, second] = listeningPids(service);
      expect(new Set([first, second, primary]).size).toBe(3);
      // The first worker prepared the new store before the second started: one demo school, not two.
      expect(
        service.lines.filter((line) => line.message.startsWith('new store filled with a demo school')),
      ).toHaveLength(1);

      for (let call = 0; call < 6; call += 1) {
        const answer = await noteTypes(service.url);
        expect(answer.status).toBe(200);
        expect(answer.body).toContain('<NameAr>');
      }

      process.kill(first, 'SIGKILL');
      await service.waitForLine((line) => line.message === 'worker died' && line.pid === first);
      // Until its replacement starts, the other worker answers every call.
      const meanwhile = await noteTypes(service.url);
      expect(meanwhile.status).toBe(200);
      const replacement = await service.waitForLine(
        (line) => line.message === 'listening' && line.pid !== first && line.pid !== second,
      );
      expect(isRunning(Number(replacement.pid))).toBe(true);
      expect((await noteTypes(service.url)).status).toBe(200);

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect([second, Number(replacement.pid)].filter(isRunning)).toEqual([]);
    },
  );

  test('workers that cannot open the store stop the service with an error instead of restarting for ever', async () => {
    service = await startServiceProcess(
      { DATA_DIR: folder, WORKERS: '2', DATABASE_URL: 'postgres://school:school@127.0.0.1:1/school' },
      'failed to start the workers',
    );
    expect(await service.exited).toBe(1);
    expect(listeningPids(service)).toEqual([]);
  });
});
