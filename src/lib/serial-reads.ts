/**
 * Reads that run one at a time: a read asked for while one runs follows it (one for all who asked
 * meanwhile), so that when it resolves what is read is as it was when it was asked, and an older
 * read never overwrites a newer one.
 */
export class SerialReads {
  /** The read under way, and the one asked for while it runs (which follows it). */
  private reading: Promise<void> | undefined;
  private readingNext: Promise<void> | undefined;

  constructor(private readonly read: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.readingNext !== undefined) return this.readingNext;
    if (this.reading === undefined) return this.start();
    const next = this.reading
      .catch(() => undefined)
      .then(() => {
        this.readingNext = undefined;
        return this.start();
      });
    this.readingNext = next;
    return next;
  }

  private start(): Promise<void> {
    const reading = this.read().finally(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    this.reading = reading;
    return reading;
  }
}
