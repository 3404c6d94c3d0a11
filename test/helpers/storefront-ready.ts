import { existsSync } from 'node:fs';

/**
 * Waits until the reference storefront is built when `npm test` builds it beside the e2e run (`bin/test.mjs` writes
 * `STOREFRONT_READY_FILE` once `storefront:prepare` is done; a failed build stops the whole run). Without the
 * variable (`npm run test:e2e`, `--serial`) the build was made before and this returns at once.
 */
export async function storefrontBuilt(timeoutMs = 600_000): Promise<void> {
  const marker = process.env.STOREFRONT_READY_FILE;
  if (!marker) return;
  const until = Date.now() + timeoutMs;
  while (!existsSync(marker)) {
    if (Date.now() > until) throw new Error(`the storefront build (${marker}) was not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
