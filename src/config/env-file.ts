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

/** Where the settings came from: the file read (none: the environment alone), and the names the environment kept. */
let origin: { file?: string; overridden: readonly string[] } = { overridden: [] };

/** Where the settings came from, for messages: the file read and the variables set over it, or the environment. */
export function settingsSource(): string {
  if (origin.file === undefined) return 'the environment';
  if (origin.overridden.length === 0) return origin.file;
  return `${origin.file}, but ${origin.overridden.join(', ')} from the environment`;
}

/** For the service's start-up line: the settings file, and which of its variables the environment set instead. */
export function settingsFileFields(): { settingsFile?: string; overriddenByEnvironment?: readonly string[] } {
  return origin.file === undefined ? {} : { settingsFile: origin.file, overriddenByEnvironment: origin.overridden };
}

/**
 * Reads the settings file into `env` and remembers it as the settings' source. A variable the
 * environment already sets to another value keeps it: `DATA_DIR=/tmp/try school-service --env
 * FILE import ...` is a one-off command on another store, and the file is the configuration for
 * everything else; the names so kept (never their values, which may be secrets) are said. Nothing
 * is read when `file` is undefined or empty.
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
  const overridden: string[] = [];
  for (const [name, value] of Object.entries(parseEnvironmentFile(text, path))) {
    // A value equal to the file's is no override (a child of this command, a unit that passed the
    // file itself), nor is an empty one (a variable exported blank by a wrapper).
    const own = env[name];
    if (own !== undefined && own !== '' && own !== value) overridden.push(name);
    else env[name] = value;
  }
  origin = { file: path, overridden };
}
