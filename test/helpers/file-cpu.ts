import { appendFileSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The CPU each e2e file costs (README "Development and tests"): counted from this setup file's evaluation, which comes
// before the test file's own imports are loaded, to its last afterAll; the Jest worker's own CPU plus the CPU of the
// child processes it reaped meanwhile (a `nest build`, a server process, Chromium). One line per file in
// TEST_RUN_DIR/file-cpu.ndjson; the global teardown prints the costliest.

/** CPU seconds of this process's reaped children (Linux /proc), else 0. */
function childrenCpu(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

const started = { at: Date.now(), wall: performance.now(), cpu: process.cpuUsage(), children: childrenCpu() };

afterAll(async () => {
  // what the file ends with before its CPU is read (beforeFileCpu, test/helpers/e2e-group.ts)
  for (const end of (globalThis as { __E2E_FILE_END__?: Array<() => Promise<void>> }).__E2E_FILE_END__ ?? []) await end();
  const dir = process.env.TEST_RUN_DIR;
  const path = expect.getState().testPath;
  if (!dir || !path) return;
  const cpu = process.cpuUsage(started.cpu);
  const group = (globalThis as { __E2E_GROUP_FILES__?: string[] }).__E2E_GROUP_FILES__;
  appendFileSync(
    join(dir, 'file-cpu.ndjson'),
    `${JSON.stringify({
      file: relative(process.cwd(), path),
      // when and on which Jest worker it ran: the run's timeline (how the files filled the workers)
      worker: Number(process.env.JEST_WORKER_ID ?? 0),
      start_s: +((started.at - Number(process.env.TEST_RUN_STARTED_AT ?? started.at)) / 1000).toFixed(1),
      wall_s: +((performance.now() - started.wall) / 1000).toFixed(2),
      cpu_s: +((cpu.user + cpu.system) / 1e6).toFixed(2),
      children_cpu_s: +(childrenCpu() - started.children).toFixed(2),
      // a group of short files (test/helpers/e2e-group.ts): the files it ran
      ...(group ? { files: group.length } : {}),
    })}\n`,
  );
});
