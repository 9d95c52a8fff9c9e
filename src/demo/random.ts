/**
 * A small seeded random source (mulberry32): the same seed gives the same school on every
 * machine and every run, which the tests rely on.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Roughly normal (sum of uniforms), clamped to [min, max] and rounded to halves. */
  score(mean: number, spread: number, min: number, max: number): number {
    const value = mean + (this.next() + this.next() + this.next() - 1.5) * spread;
    return Math.min(max, Math.max(min, Math.round(value * 2) / 2));
  }
}
