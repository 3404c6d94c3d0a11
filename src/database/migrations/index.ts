import { Foundation1764000000000 } from './1764000000000-foundation.js';

/** Every migration, in order. A feature adds its own file here. */
export const migrations = [Foundation1764000000000];
