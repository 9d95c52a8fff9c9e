import { spawn } from 'node:child_process';
import { CLI_ENTRY, ROOT } from './build';
import { MemorySampler } from './memory';

export interface CliRun {
  readonly seconds: number;
  readonly peakMegabytes: number;
  readonly output: string;
}

/** Runs the built school-service command with the given settings; its wall time, peak memory (Pss) and output. */
export function runCli(args: readonly string[], settings: Readonly<Record<string, string>>): Promise<CliRun> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: { ...process.env, DEMO_DATA: 'off', LOG_LEVEL: 'warn', DATABASE_URL: '', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sampler = new MemorySampler(child.pid as number, 250);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const peakMegabytes = sampler.stop();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`${args[0]} exited with ${code}:\n${output.slice(-4000)}`));
      else resolve({ seconds, peakMegabytes, output });
    });
  });
}
