import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './build';
import type { CapturedResponse } from './capture';
import { firstMatchingLine, type ProcessGroup } from '../../test/support/processes';

/**
 * The floor server of `npm run bench:scale` (floor-server.js): what it is told, and starting it.
 * Each entry is one request the benchmark sends, with the service's answer to it, which the floor
 * repeats after reading the same rows.
 */

const FLOOR_SERVER = join(ROOT, 'scripts', 'benchmark', 'floor-server.js');

export interface FloorEntry {
  readonly operation: string;
  /** The request's parameter values, in the order the operation's parameters are sent. */
  readonly values: readonly string[];
  /** The request body, by which the floor recognises the request. */
  readonly request: string;
  readonly response: CapturedResponse;
}

export interface FloorServer {
  readonly pid: number;
  readonly port: number;
}

/** Writes the floor's file into `directory` and starts the floor on it; resolves once it listens. */
export async function startFloorServer(
  group: ProcessGroup,
  directory: string,
  databaseFile: string,
  entries: readonly FloorEntry[],
): Promise<FloorServer> {
  const file = join(directory, 'floor.json');
  writeFileSync(
    file,
    JSON.stringify({
      database: databaseFile,
      entries: entries.map(({ operation, values, request, response }) => ({
        operation,
        values,
        request,
        status: response.status,
        contentType: response.contentType,
        body: response.body.toString('base64'),
      })),
    }),
  );
  const child = group.spawn(process.execPath, [FLOOR_SERVER, file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Before it listens, it reads every entry's rows once to check them against the answers.
  const [, port] = await firstMatchingLine(child, /^listening (\d+)$/m, 120_000, 'the floor server');
  return { pid: child.pid as number, port: Number(port) };
}
