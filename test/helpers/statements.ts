import pg from 'pg';

/** The background jobs' polls (outbox, webhooks): not a request's statements. */
const BACKGROUND = [/^UPDATE webhook_deliveries d SET attempts/, /^SELECT j\.id, j\.handler/];

/** One statement a `pg` client sent, whitespace collapsed, with the client that sent it. */
interface Sent {
  client: unknown;
  sql: string;
}

/**
 * Every statement any `pg` client of this process (the app's pool included) sends while `work` runs, in order; the
 * background polls are left out, and with them the transactions that held nothing else (a worker kicked by the
 * previous step's commit, whose COMMIT may come late). `START TRANSACTION` and `COMMIT` count: each is a round trip.
 */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  const seen: Sent[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0];
    seen.push({ client: this, sql: (typeof q === 'string' ? q : String((q as { text?: string })?.text ?? q)).replace(/\s+/g, ' ').trim() });
    return original.apply(this, args);
  };
  try {
    await work();
    return withoutBackground(seen);
  } finally {
    proto.query = original;
  }
}

function withoutBackground(seen: Sent[]): string[] {
  const background = (sql: string) => BACKGROUND.some((re) => re.test(sql));
  const open = new Map<unknown, string[]>();
  const kept: string[] = [];
  const close = (client: unknown) => {
    const tx = open.get(client)!;
    open.delete(client);
    // kept when it held a statement besides its START and its COMMIT (the background polls were never added to it)
    if (tx.some((sql) => !/^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/.test(sql))) kept.push(...tx);
  };
  for (const { client, sql } of seen) {
    if (/^(START TRANSACTION|BEGIN)\b/.test(sql)) open.set(client, [sql]);
    else if (/^(COMMIT|ROLLBACK)\b/.test(sql)) {
      // a COMMIT of a transaction begun before the window is not this window's
      if (open.has(client)) {
        open.get(client)!.push(sql);
        close(client);
      }
    } else if (!background(sql)) (open.get(client) ?? kept).push(sql);
  }
  for (const client of [...open.keys()]) close(client);
  return kept;
}
