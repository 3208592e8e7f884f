#!/usr/bin/env node
// Writes the Prometheus rule files alerts/*.rules.yaml from their sources in alerts/src/, filling in
// the job selectors and thresholds of alerts/settings.yaml (placeholders %{selectors.NAME} and
// %{thresholds.NAME}, the latter also as %{thresholds.NAME|percent} for text).
//   node scripts/generate-rules.mjs                                   write alerts/*.rules.yaml
//   node scripts/generate-rules.mjs --check                           exit 1 if a committed file is stale
//   node scripts/generate-rules.mjs --settings my.yaml --out DIR      an operator's own values, into DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = join(root, 'alerts/src');

/** Fills every placeholder of a rule file's source; an unknown name is an error, never left in. */
export function renderRules(source, settings, file = 'rules') {
  return source.replace(/%\{(selectors|thresholds)\.([a-z0-9_]+)(\|percent)?\}/g, (placeholder, section, name, percent) => {
    const value = settings[section]?.[name];
    if (value === undefined) throw new Error(`${file}: ${placeholder} has no value in ${section}.${name}`);
    return percent ? `${Math.round(Number(value) * 1000) / 10}%` : String(value);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, settings: { type: 'string' }, out: { type: 'string' } } });
  const settings = parse(readFileSync(values.settings ?? join(root, 'alerts/settings.yaml'), 'utf8'));
  const out = values.out ?? join(root, 'alerts');
  mkdirSync(out, { recursive: true });
  let stale = 0;
  for (const file of readdirSync(sources).filter((name) => name.endsWith('.rules.yaml'))) {
    const rendered = renderRules(readFileSync(join(sources, file), 'utf8'), settings, file);
    if (!values.check) writeFileSync(join(out, file), rendered);
    else if (readFileSync(join(out, file), 'utf8') !== rendered) {
      console.error(`${join('alerts', file)} is stale: run node scripts/generate-rules.mjs`);
      stale++;
    }
  }
  process.exitCode = stale > 0 ? 1 : 0;
}
