// Browser e2e files run together in one module registry and one Chromium (test/helpers/e2e-groups.cjs): `npm test` runs this file instead of them.
import { afterAll } from '@jest/globals';
import { closeChromium } from '../e2e/storefront-browser.fixture.js';
import { importBrowserGroup } from '../helpers/e2e-group.js';

afterAll(closeChromium);
await importBrowserGroup(2);
