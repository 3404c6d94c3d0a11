import pg from 'pg';

/**
 * Statements kept prepared on each pool connection (issue 34): a statement marked with `prepared(sql)` is sent as a
 * named prepared statement, so PostgreSQL parses and analyses its text once per connection and can keep a generic
 * plan, instead of parsing, analysing and planning it on every call. On the checkout's flow the planner alone was
 * about 5.8 ms of PostgreSQL's time per order (pg_stat_statements `total_plan_time`, 17 statements); marked, 1.5 ms.
 *
 * Only repeated statements of a fixed text are marked (the order flow's); the registry holds at most
 * `MAX_PREPARED` distinct texts, the ones after that run unnamed, so that a text built per call can never make a
 * connection hold more and more statements. `DATABASE_PREPARED_STATEMENTS=off` sends everything unnamed (for a
 * pooler in transaction mode that does not keep prepared statements).
 */
export const MAX_PREPARED = 200;

const names = new Map<string, string>();
/** Names are never reused for another text, not even after `setPreparedStatements(false)`: a connection keeps its statements. */
let lastName = 0;
let enabled = true;

/** Marks `sql` as a statement to keep prepared on every connection; returns it unchanged. */
export function prepared(sql: string): string {
  if (enabled && names.size < MAX_PREPARED && !names.has(sql)) names.set(sql, `vs${++lastName}`);
  return sql;
}

/** On (default) or off for the whole process (`DATABASE_PREPARED_STATEMENTS`); off forgets the marked statements. */
export function setPreparedStatements(on: boolean): void {
  enabled = on;
  if (!on) names.clear();
}

/** The name a marked statement is prepared under, or undefined (for tests). */
export function preparedNameOf(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * A prepared statement's result columns are fixed when it is prepared: after a migration adds a column to a table
 * that a marked statement reads with a star (a newer instance migrating while this one runs), PostgreSQL refuses the next
 * execution with this error. That statement then runs unnamed on that connection from then on; outside a
 * transaction the failed call is repeated at once, inside one the transaction fails as on any error.
 */
const STALE_RESULT = 'cached plan must not change result type';

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** The pool's client (`extra.Client`): `pg.Client` sending marked statements by name. */
export class PreparingClient extends pg.Client {
  private stale?: Set<string>;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloads; the arguments are passed on as they came
  override query(...args: QueryArgs): any {
    const [text, values, callback] = args;
    const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined ? names.get(text) : undefined;
    // `super.query` is looked up at each call (tests count statements by patching pg.Client.prototype.query)
    // eslint-disable-next-line no-restricted-syntax -- infrastructure: passes the repositories' statements on
    if (name === undefined || this.stale?.has(name)) return super.query(text as string, values as unknown[], callback as never);
    const idle = (this as unknown as { _txStatus?: string })._txStatus === 'I';
    // eslint-disable-next-line no-restricted-syntax -- infrastructure: passes the repositories' statements on
    return super.query({ name, text: text as string, values: values as unknown[] }).catch((err: unknown) => {
      const e = err as { code?: string; message?: string };
      if (e?.code !== '0A000' || !String(e.message).includes(STALE_RESULT)) throw err;
      (this.stale ??= new Set()).add(name);
      if (!idle) throw err;
      // eslint-disable-next-line no-restricted-syntax -- infrastructure: passes the repositories' statements on
      return super.query(text as string, values as unknown[]);
    });
  }
}
