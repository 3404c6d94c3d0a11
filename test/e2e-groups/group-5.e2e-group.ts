// Short e2e files run together in one module registry (test/helpers/e2e-groups.cjs): `npm test` runs this file instead of them.
import { importGroup } from '../helpers/e2e-group.js';

await importGroup(5);
