import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** The costliest e2e files by CPU (test/helpers/file-cpu.ts), when more than a few ran: where the run's time goes. */
function printFileCpu(dir) {
  const path = join(dir, 'file-cpu.ndjson');
  if (!existsSync(path)) return;
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  if (rows.length < 5) return;
  const total = (r) => r.cpu_s + r.children_cpu_s;
  rows.sort((a, b) => total(b) - total(a));
  const sum = rows.reduce((n, r) => n + total(r), 0);
  const lines = rows
    .slice(0, 15)
    .map(
      (r) =>
        `${total(r).toFixed(1).padStart(7)} ${r.cpu_s.toFixed(1).padStart(7)} ${r.children_cpu_s.toFixed(1).padStart(7)} ${r.wall_s.toFixed(1).padStart(7)}  ${r.file}${r.files ? ` (${r.files} files)` : ''}`,
    );
  process.stdout.write(
    `\ne2e CPU by file: ${rows.length} files, ${sum.toFixed(0)} CPU s (the costliest 15)\n  cpu s  worker   child  wall s\n${lines.join('\n')}\n`,
  );
}

export default async function globalTeardown() {
  if (process.env.TEST_RUN_DIR) {
    printFileCpu(process.env.TEST_RUN_DIR);
    // TEST_FILE_CPU_OUT=<path> keeps the run's per-file lines (file, worker, start, wall and CPU) for a closer look
    if (process.env.TEST_FILE_CPU_OUT && existsSync(join(process.env.TEST_RUN_DIR, 'file-cpu.ndjson')))
      copyFileSync(join(process.env.TEST_RUN_DIR, 'file-cpu.ndjson'), process.env.TEST_FILE_CPU_OUT);
    rmSync(process.env.TEST_RUN_DIR, { recursive: true, force: true });
  }
  const embedded = globalThis.__EMBEDDED_PG__;
  // the run's template on a DATABASE_URL server (an embedded server goes as a whole below)
  if (!embedded && process.env.TEST_DATABASE_SERVER && process.env.TEST_TEMPLATE_DB) {
    const u = new URL(process.env.TEST_DATABASE_SERVER);
    u.pathname = '/postgres';
    const client = new pg.Client({ connectionString: u.toString() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${process.env.TEST_TEMPLATE_DB} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
  if (embedded) {
    await embedded.server.stop();
    rmSync(embedded.dir, { recursive: true, force: true });
  }
}
