import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Engine } from './engine';
import type { Database } from './schema';
import type { Session } from './session';

/**
 * A query written with kysely like any other, but built and compiled once per engine; each call
 * runs the same SQL with its own parameters. Building and compiling a join of five tables cost
 * more than running it (about 40 µs against a few), on every call, and the SQL text, the same
 * each time but a new string, had to be hashed again to find its prepared statement.
 *
 * The builder gets `parameters` as stand-ins: each is a unique value that kysely passes through
 * to the compiled query's parameter list, where it is found and replaced on each call. So a
 * builder uses a parameter only as a value compared or inserted; it must not branch on one (the
 * builder runs once, with stand-ins), and a query whose shape depends on its input (a list of
 * ids of any length, an optional filter) is written as two compiled queries or kept dynamic.
 */
export type CompiledQueryRunner<P, R> = (session: Session, parameters: P) => Promise<R[]>;

class Parameter {
  constructor(readonly name: string) {}
}

interface Compiled {
  readonly query: CompiledQuery;
  /** For each parameter of the SQL, the name of the call's parameter, or the constant the builder wrote. */
  readonly slots: ReadonlyArray<{ readonly name: string } | { readonly constant: unknown }>;
}

type Builder<P, R> = (db: Kysely<Database>, parameters: P, engine: Engine) => Compilable<R> | RawBuilder<R>;

function compile<P extends object>(db: Kysely<Database>, engine: Engine, build: Builder<P, unknown>): Compiled {
  const used = new Set<string>();
  const standIns = new Proxy({} as P, {
    get: (_target, name) => {
      if (typeof name !== 'string') throw new Error('a compiled query has named parameters only');
      used.add(name);
      return new Parameter(name);
    },
  });
  const built = build(db, standIns, engine);
  const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
  const slots = query.parameters.map((value) =>
    value instanceof Parameter ? { name: value.name } : { constant: value },
  );
  const placed = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
  const lost = [...used].filter((name) => !placed.has(name));
  // A stand-in kysely did not pass through as a value would silently become part of the SQL.
  if (lost.length > 0) throw new Error(`compiled query: ${lost.join(', ')} not used as a value`);
  return { query, slots };
}

/** `build` is told the engine for the few queries whose SQL differs between the two. */
export function compiledQuery<P extends object, R>(build: Builder<P, R>): CompiledQueryRunner<P, R> {
  const byEngine = new Map<Engine, Compiled>();
  return async ({ db, engine, direct }, parameters) => {
    let compiled = byEngine.get(engine);
    if (!compiled) {
      compiled = compile(db, engine, build);
      byEngine.set(engine, compiled);
    }
    const values = parameters as Record<string, unknown>;
    const { query, slots } = compiled;
    const bound = new Array<unknown>(slots.length);
    for (let index = 0; index < slots.length; index++) {
      const slot = slots[index];
      bound[index] = 'name' in slot ? values[slot.name] : slot.constant;
    }
    const rows = direct?.all(query.sql, bound);
    // SQLite's rows come at once: no await, which would cost the call another turn of the queue.
    if (Array.isArray(rows)) return rows as R[];
    if (rows) return (await rows) as R[];
    const result = await db.executeQuery<R>({ ...query, parameters: bound } as CompiledQuery<R>);
    return result.rows;
  };
}
