import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  if (process.env.TEST_RUN_DIR) rmSync(process.env.TEST_RUN_DIR, { recursive: true, force: true });
  const embedded = globalThis.__EMBEDDED_PG__;
  if (embedded) {
    await embedded.server.stop();
    rmSync(embedded.dir, { recursive: true, force: true });
  }
}
