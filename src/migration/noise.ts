import type { IgnoredPath } from '../config/migration-settings';
import type { Difference } from './infoset-differences';

function matches(steps: readonly string[], path: string): boolean {
  const pathSteps = path.slice(1).split('/');
  return steps.length === pathSteps.length && steps.every((step, index) => step === '*' || step === pathSteps[index]);
}

/**
 * The field paths where answers differ without meaning to, per operation and binding: learned,
 * as Diffy does, from calls sent to the legacy service twice (a field that differs between two
 * legacy answers to one call, a timestamp say, is noise), and named by the operator (SHADOW_IGNORE).
 */
export class NoiseRegister {
  private readonly learned = new Map<string, Set<string>>();

  constructor(private readonly ignored: readonly IgnoredPath[]) {}

  /** Marks as noise where the legacy service's two answers to one call differed. */
  learn(operation: string, binding: string, between: readonly Difference[]): void {
    if (between.length === 0) return;
    const key = `${operation} ${binding}`;
    let paths = this.learned.get(key);
    if (!paths) {
      paths = new Set();
      this.learned.set(key, paths);
    }
    for (const { path } of between) paths.add(path);
  }

  isNoise(operation: string, binding: string, path: string): boolean {
    if (this.learned.get(`${operation} ${binding}`)?.has(path)) return true;
    return this.ignored.some(
      (ignored) => (ignored.operation === '*' || ignored.operation === operation) && matches(ignored.steps, path),
    );
  }
}
