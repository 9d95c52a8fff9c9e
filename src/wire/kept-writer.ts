import { Utf8Writer } from './utf8-writer';

/** What the kept writer starts with: most answers fit, a list of a large class included. */
const STARTING_BYTES = 64 * 1024;
/** The largest buffer kept between answers; a larger answer (a report card) grows it for itself only. */
const KEPT_BYTES = 1024 * 1024;

/**
 * One Utf8Writer for answer after answer, each copied out at its own size: an answer's bytes must
 * stay as they are until the socket has sent them, the writer's buffer only until the copy. A new
 * writer a call asked for its object and a buffer of a guessed size (the operation's last answer,
 * a kilobyte and an eighth more), all garbage once the answer was sent; now an answer asks for its
 * own buffer and nothing else (`npm run bench:allocations` counts it). Answers are written one at a
 * time (a write never awaits), so one writer serves a binding.
 */
export class KeptUtf8Writer {
  private writer = new Utf8Writer(STARTING_BYTES);

  /** The writer, empty (a write that threw may have left bytes behind). */
  start(): Utf8Writer {
    this.writer.truncate(0);
    return this.writer;
  }

  /** The bytes written since start(), in a buffer of their own. */
  finish(): Buffer {
    const answer = this.writer.takeCopy();
    if (this.writer.capacity > KEPT_BYTES) this.writer = new Utf8Writer(STARTING_BYTES);
    return answer;
  }
}
