import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const embedded = globalThis.__EMBEDDED_PG__;
  if (embedded) {
    await embedded.server.stop();
    rmSync(embedded.dir, { recursive: true, force: true });
  }
}
