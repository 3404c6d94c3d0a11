/**
 * The figures recorded in bench/README.md ("Recorded figures", one row per case and figure, kept per commit), and the
 * comparison the bench prints: each figure next to the last recorded one, a drop of more than 15 % flagged.
 * `--record` appends the run's figures as new rows (commit, date, case, figure, value, note).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

export const DROP_FLAG = 0.15;
const HEADING = '## Recorded figures';
const HEADER = '| commit | date | case | figure | value | note |';

/** The figures of one case's result worth tracking: name → number (an `_ms` figure is better lower). */
export function trackedFigures(id, r) {
  const pick = (...names) => Object.fromEntries(names.filter((n) => typeof r[n] === 'number').map((n) => [n, r[n]]));
  if (id === 'checkout') return pick('orders_per_s', 'flow_p99_ms', 'complete_p99_ms');
  if (id === 'checkout-browsing') return pick('orders_per_s', 'flow_p99_ms', 'browse_ratio', 'rps');
  if (id === 'workers') return pick('category_rps_1', 'category_rps_2', 'checkout_orders_per_s_1', 'checkout_orders_per_s_2');
  if (id === 'promotions-cart') return pick('ratio', 'rps', 'p99_ms', 'off_rps', 'cpu_per_read_ms', 'off_cpu_per_read_ms');
  if (id === 'h') return pick('first_ms');
  if (id === 'checkout-read') return pick('rps', 'p99_ms', 'ratio_median');
  return pick('rps', 'p99_ms');
}

/** The recorded rows of the README, oldest first. */
export function readRecorded(readmePath) {
  const text = readFileSync(readmePath, 'utf8');
  const at = text.indexOf(HEADING);
  if (at < 0) return [];
  const rows = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 7 || cells[1] === 'commit' || /^-+$/.test(cells[1])) continue;
    const value = Number(cells[5].replace(/[, ]/g, ''));
    if (!Number.isFinite(value)) continue;
    rows.push({ commit: cells[1], date: cells[2], case: cells[3], figure: cells[4], value, note: cells[6] });
  }
  return rows;
}

/** Lines comparing this run's figures with the last recorded ones; `drops` counts the flagged ones. */
export function compareWithRecorded(results, recorded) {
  const lines = [];
  let drops = 0;
  for (const [id, r] of Object.entries(results)) {
    for (const [figure, value] of Object.entries(trackedFigures(id, r))) {
      const last = recorded.filter((row) => row.case === id && row.figure === figure).at(-1);
      if (!last) {
        lines.push(`${id.padEnd(18)} ${figure.padEnd(24)} ${String(value).padStart(9)}   (nothing recorded yet)`);
        continue;
      }
      const lowerIsBetter = figure.endsWith('_ms');
      const change = last.value === 0 ? 0 : (value - last.value) / last.value;
      const worse = lowerIsBetter ? change : -change;
      const flag = worse > DROP_FLAG ? `   DROP of ${Math.round(worse * 100)} % (over ${DROP_FLAG * 100} %)` : '';
      if (flag) drops += 1;
      const sign = change >= 0 ? '+' : '';
      lines.push(
        `${id.padEnd(18)} ${figure.padEnd(24)} ${String(value).padStart(9)}   last ${last.value} (${last.commit}, ${last.date}) ${sign}${Math.round(change * 100)} %${flag}`,
      );
    }
  }
  return { lines, drops };
}

/** Appends this run's figures to the README's table (`--record`). */
export function recordFigures(readmePath, results, note, root) {
  let commit = 'uncommitted';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  const date = new Date().toISOString().slice(0, 10);
  const rows = [];
  for (const [id, r] of Object.entries(results))
    for (const [figure, value] of Object.entries(trackedFigures(id, r))) rows.push(`| ${commit} | ${date} | ${id} | ${figure} | ${value} | ${note} |`);
  let text = readFileSync(readmePath, 'utf8');
  if (!text.includes(HEADING)) text = `${text.trimEnd()}\n\n${HEADING}\n\n${HEADER}\n|---|---|---|---|---|---|\n`;
  const at = text.indexOf(HEADING);
  const next = text.indexOf('\n## ', at + HEADING.length);
  const end = next < 0 ? text.length : next + 1;
  const section = text.slice(at, end).trimEnd();
  text = `${text.slice(0, at)}${section}\n${rows.join('\n')}\n${next < 0 ? '' : `\n${text.slice(end)}`}`;
  writeFileSync(readmePath, text);
  return rows.length;
}
