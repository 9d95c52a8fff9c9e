import { SaxesParser } from 'saxes';
import type { Answer } from './answer';

/**
 * The students, teachers and classes a legacy answer names, for the audit trail of a call the
 * legacy service answered: the ids in its `StudentId`, `TeacherId` and `ClassId` fields (elements
 * in XML, members in JSON), as this service's own answers carry them. The answer is another
 * service's, so it is read within fixed budgets: past them the rest is not read, and what was
 * found stands.
 */

export type NamedKind = 'student' | 'teacher' | 'class';
export type NamedRecords = Record<NamedKind, number[]>;

const KIND_OF_NAME: Readonly<Record<string, NamedKind>> = {
  StudentId: 'student',
  TeacherId: 'teacher',
  ClassId: 'class',
};
/** Elements or JSON values looked at, at most: a list of a school's records is far shorter. */
const MAX_NODES = 100_000;
/** Ids kept, at most, of one answer. */
const MAX_IDS = 5_000;
/** The longest text an id field is read to; ten digits and some spaces. */
const MAX_ID_TEXT = 32;

class BudgetSpent extends Error {}

function idOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,10}$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return id >= 1 && id <= 2147483647 ? id : undefined;
}

class Collector {
  readonly named: NamedRecords = { student: [], teacher: [], class: [] };
  private nodes = 0;
  private ids = 0;

  /** Counts one node read, and stops the reading past the budget. */
  visit(): void {
    if (++this.nodes > MAX_NODES) throw new BudgetSpent();
  }

  add(kind: NamedKind, text: string): void {
    const id = idOf(text);
    if (id === undefined) return;
    if (++this.ids > MAX_IDS) throw new BudgetSpent();
    this.named[kind].push(id);
  }
}

function fromXml(text: string, collector: Collector): void {
  const parser = new SaxesParser();
  let field: NamedKind | undefined;
  let value = '';
  parser.on('error', () => {
    throw new BudgetSpent();
  });
  parser.on('doctype', () => {
    throw new BudgetSpent();
  });
  parser.on('opentag', (tag) => {
    collector.visit();
    const colon = tag.name.indexOf(':');
    field = KIND_OF_NAME[colon === -1 ? tag.name : tag.name.slice(colon + 1)];
    value = '';
  });
  parser.on('text', (chunk) => {
    if (field !== undefined && value.length <= MAX_ID_TEXT) value += chunk.slice(0, MAX_ID_TEXT + 1);
  });
  parser.on('closetag', () => {
    if (field !== undefined) collector.add(field, value);
    field = undefined;
  });
  parser.write(text).close();
}

/** Walks a parsed JSON value without recursion, so that its depth costs no stack. */
function fromJson(text: string, collector: Collector): void {
  const pending: unknown[] = [JSON.parse(text)];
  while (pending.length > 0) {
    const value = pending.pop();
    collector.visit();
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [name, member] of Object.entries(value)) {
        const kind = Object.hasOwn(KIND_OF_NAME, name) ? KIND_OF_NAME[name] : undefined;
        if (kind !== undefined && (typeof member === 'number' || typeof member === 'string')) {
          collector.add(kind, String(member));
        } else pending.push(member);
      }
    }
  }
}

/** What the answer names; nothing for an answer that is neither XML nor JSON, or that cannot be read. */
export function recordsNamedIn(answer: Answer): NamedRecords {
  const collector = new Collector();
  const text = answer.body.toString('utf8');
  const json = (answer.headers['content-type'] ?? '').includes('json');
  try {
    if (json) fromJson(text, collector);
    else if (text.trimStart().startsWith('<')) fromXml(text, collector);
  } catch (error) {
    if (!(error instanceof BudgetSpent || error instanceof SyntaxError || error instanceof RangeError)) throw error;
  }
  return collector.named;
}
