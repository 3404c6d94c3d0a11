// Browser e2e files run together in one module registry and one Chromium (test/helpers/e2e-groups.cjs): `npm test` runs this file instead of them.
import { closeChromium } from '../e2e/storefront-browser.fixture.js';
import { beforeFileCpu, importBrowserGroup } from '../helpers/e2e-group.js';

// after the group's last file, before its CPU is counted (Chromium reaped by then)
beforeFileCpu(closeChromium);
await importBrowserGroup(2);
