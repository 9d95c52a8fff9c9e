import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type Environment } from './readers';

/**
 * The service's settings file, in the format of systemd's EnvironmentFile=: one NAME=value a line,
 * blank lines and lines starting with # or ; ignored, a value optionally in single quotes (taken
 * as it is) or double quotes (\" and \\ escaped), a line ending in \ continued on the next. The
 * unit and every command read the same file, so that they act on one store with one key.
 */
export function parseEnvironmentFile(text: string, file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) throw new ConfigError(`${file} line ${index + 1} is not NAME=value`);
    const [, name, value] = match as unknown as [string, string, string];
    settings[name] = unquoted(value, `${file} line ${index + 1}`);
  });
  return settings;
}

function unquoted(value: string, where: string): string {
  if (value.startsWith("'")) {
    if (!value.endsWith("'") || value.length < 2) throw new ConfigError(`${where}: a quote is not closed`);
    return value.slice(1, -1);
  }
  if (value.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(value)) throw new ConfigError(`${where}: a quote is not closed`);
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** Where the settings came from, for messages: the file read, or the process's environment. */
let source = 'the environment';

export function settingsSource(): string {
  return source;
}

/**
 * Reads the settings file into `env` (its values win over those inherited: the file is the
 * configuration) and remembers it as the settings' source. Nothing is read when `file` is
 * undefined or empty.
 */
export function applyEnvironmentFile(file: string | undefined, env: Environment = process.env): void {
  if (file === undefined || file === '') return;
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the settings file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  Object.assign(env, parseEnvironmentFile(text, path));
  source = path;
}
