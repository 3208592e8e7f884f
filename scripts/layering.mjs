// Lists imports that cross the layers of src/alerts the wrong way (type-only imports included).
// Usage: node scripts/layering.mjs   (exit 1 when there is one)
import { fileURLToPath } from 'node:url';
import { importGraph } from './import-cycles.mjs';

/**
 * Evaluation produces alerts and nothing else: it never reaches dispatch (routing, inhibition,
 * silences, grouping, the notification log, receivers), nor the plane that wires the two, nor
 * state_dir (its alerts are saved through what the plane hands it). Dispatch consumes the alerts
 * evaluation hands it and never runs evaluation. What was notified lives in the notification log
 * alone: evaluation's store of alerts (alerts.json) knows nothing of dispatch, and dispatch never
 * writes that store. Followed through src/alerts only: the config schema describes the whole
 * `alerts:` section, dispatch's settings included. Dispatch's verdicts on an alert (a flap hold,
 * muting) are dispatch's too: evaluation's alerts carry none, and views (the status page, the
 * Alertmanager API) read them through the plane's narrow read side (`dispatch/verdicts.ts`), never
 * from the dispatcher, the flap damper or the notification log: a `direct` rule checks a module's
 * own imports only (views reach the whole plane through `alert-plane.ts`).
 */
export const ALERT_LAYERS = [
  {
    from: 'alerts/evaluation/',
    never: ['alerts/dispatch/', 'alerts/state/', 'alerts/alert-plane.ts', 'alerts/evaluation-schedule.ts'],
  },
  {
    from: 'alerts/dispatch/',
    never: ['alerts/evaluation/engine.ts', 'alerts/state/state-store.ts', 'alerts/alert-plane.ts', 'alerts/evaluation-schedule.ts'],
  },
  { from: 'alerts/state/state-store.ts', never: ['alerts/dispatch/'] },
  { from: 'server/', never: ['alerts/dispatch/dispatcher.ts', 'alerts/dispatch/flap/', 'alerts/dispatch/nflog/'], direct: true },
];

/** Each forbidden path as the chain of imports that makes it, followed through modules under `within`. */
export function layerViolations(graph, layers, within = 'alerts/') {
  const violations = [];
  for (const { from, never, direct = false } of layers) {
    for (const start of [...graph.keys()].filter((module) => module.startsWith(from)).sort()) {
      const parents = new Map([[start, undefined]]);
      const queue = [start];
      while (queue.length > 0) {
        const module = queue.shift();
        for (const next of graph.get(module) ?? []) {
          if (parents.has(next)) continue;
          parents.set(next, module);
          if (never.some((forbidden) => next.startsWith(forbidden))) {
            const chain = [next];
            for (let step = module; step !== undefined; step = parents.get(step)) chain.unshift(step);
            violations.push(chain);
          } else if (next.startsWith(within) && !direct) queue.push(next);
        }
      }
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const violations = layerViolations(importGraph(fileURLToPath(new URL('../src', import.meta.url))), ALERT_LAYERS);
  for (const chain of violations) console.log(chain.join(' -> '));
  console.log(`${violations.length} import(s) across the alert layers`);
  process.exit(violations.length === 0 ? 0 : 1);
}
