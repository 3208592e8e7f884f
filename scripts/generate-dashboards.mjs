#!/usr/bin/env node
// Writes the Grafana dashboards in dashboards/*.json from their sources in dashboards/src/.
//   node scripts/generate-dashboards.mjs          write the files
//   node scripts/generate-dashboards.mjs --check  exit 1 if a committed file differs from its source
import { readFileSync, writeFileSync } from 'node:fs';
import { dashboards, renderDashboard } from '../dashboards/src/index.mjs';

const directory = new URL('../dashboards/', import.meta.url);
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, dashboard] of Object.entries(dashboards)) {
  const url = new URL(file, directory);
  const rendered = renderDashboard(dashboard);
  if (!check) {
    writeFileSync(url, rendered);
    continue;
  }
  let committed = '';
  try {
    committed = readFileSync(url, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (committed !== rendered) {
    process.stderr.write(`dashboards/${file} is out of date: run node scripts/generate-dashboards.mjs\n`);
    stale += 1;
  }
}
process.exit(stale === 0 ? 0 : 1);
