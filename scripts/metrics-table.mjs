// Prints docs/metrics.md table rows for catalogue metrics matching name prefixes, to keep the doc in
// step with src/metrics/catalogue: `npm run -s build && node scripts/metrics-table.mjs avaxmon_node_`
import { allMetrics } from '../dist/metrics/catalogue/index.js';

const prefixes = process.argv.slice(2);
console.log('| metric | type | labels | help |\n|---|---|---|---|');
for (const desc of allMetrics) {
  if (prefixes.length > 0 && !prefixes.some((prefix) => desc.name.startsWith(prefix))) continue;
  const labels = desc.labels.map((label) => `\`${label}\``).join(', ') || '—';
  console.log(`| \`${desc.name}\` | ${desc.type} | ${labels} | ${desc.help.replace(/\|/g, '\\|')} |`);
}
