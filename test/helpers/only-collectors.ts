import { collectorNames, type CollectorName } from '../../src/collectors/names.js';

/**
 * A target's `collectors:` map (YAML flow style) with every collector but `wanted` disabled. A
 * process test runs only what its rules read: the rest (the validators' 1.9 MB answer above all)
 * would only load the simulator, which shares the test's process, on a machine shared with other work.
 */
export function onlyCollectors(wanted: readonly CollectorName[]): string {
  const disabled = collectorNames.filter((name) => !wanted.includes(name));
  return `{ ${disabled.map((name) => `${name}: { enabled: false }`).join(', ')} }`;
}
