// Lists the import cycles among src/ modules (type-only imports included: they tie the design too).
// Usage: node scripts/import-cycles.mjs   (exit 1 when there is a cycle)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Module → the src/ modules it imports or re-exports from. */
export function importGraph(root) {
  const files = readdirSync(root, { recursive: true })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(root, file));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms)].map((match) => match[1]);
    graph.set(
      relative(root, file),
      specifiers.map((specifier) => relative(root, resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))),
    );
  }
  return graph;
}

/** Every elementary cycle found by a depth-first search, each once, as a list of modules. */
export function findCycles(graph) {
  const cycles = new Map();
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]);
        const canonical = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(canonical.join(' -> '), canonical);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...cycles.values()];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cycles = findCycles(importGraph(fileURLToPath(new URL('../src', import.meta.url))));
  for (const cycle of cycles) console.log(`${cycle.join(' -> ')} -> ${cycle[0]}`);
  console.log(`${cycles.length} import cycle(s) in src/`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
