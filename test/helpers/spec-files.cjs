// What the e2e and unit groups share (test/helpers/e2e-groups.cjs, test/helpers/unit-groups.cjs): finding spec files
// on disk and splitting them into groups of about the same size.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** The files under `dir` whose name matches `pattern` (node_modules and dot entries skipped), appended to `out`. */
function walk(dir, pattern, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, pattern, out);
    else if (pattern.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * `files` ({file, size}) split into `count` groups of about the same size (bytes, a rough cost measure): the largest
 * first, each into the smallest group so far; each group's files in name order.
 */
function balance(files, count) {
  const sorted = [...files].sort((a, b) => b.size - a.size || (a.file < b.file ? -1 : 1));
  const out = Array.from({ length: count }, () => ({ size: 0, files: [] }));
  for (const f of sorted) {
    const smallest = out.reduce((min, g) => (g.size < min.size ? g : min));
    smallest.size += f.size;
    smallest.files.push(f.file);
  }
  return out.map((g) => g.files.sort());
}

module.exports = { walk, balance };
