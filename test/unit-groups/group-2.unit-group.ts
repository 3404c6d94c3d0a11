// Unit specs run together in one module registry (test/helpers/unit-groups.cjs): `npm test` runs this file instead of them.
import { importUnitGroup } from '../helpers/unit-group.js';

await importUnitGroup(2);
