import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, also run by hand (node scripts/import-cycles.mjs)
import { findCycles, importGraph } from '../scripts/import-cycles.mjs';
// @ts-expect-error: a plain .mjs script, also run by hand (node scripts/layering.mjs)
import { ALERT_LAYERS, layerViolations } from '../scripts/layering.mjs';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

describe('src/ module graph', () => {
  it('has no import cycles (type-only imports included)', () => {
    const cycles = findCycles(importGraph(SRC)) as string[][];
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('the detector finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});

describe('src/alerts layers', () => {
  it('evaluation never imports dispatch, and dispatch never runs evaluation', () => {
    const violations = layerViolations(importGraph(SRC), ALERT_LAYERS) as string[][];
    expect(violations.map((chain) => chain.join(' -> '))).toEqual([]);
  });

  it('the check finds evaluation reaching dispatch, directly or through another alerts module', () => {
    const graph = new Map([
      ['alerts/evaluation/engine.ts', ['alerts/evaluation/rule.ts', 'alerts/matchers/matchers.ts', 'config/schema.ts']],
      ['alerts/evaluation/rule.ts', ['alerts/dispatch/route/routing.ts']],
      ['alerts/matchers/matchers.ts', ['alerts/dispatch/outbox.ts']],
      // Outside src/alerts the walk stops: the config schema describes dispatch's settings too.
      ['config/schema.ts', ['alerts/dispatch/route/route.ts']],
      ['alerts/dispatch/dispatcher.ts', ['alerts/evaluation/alert-record.ts']],
    ]);
    expect(layerViolations(graph, ALERT_LAYERS)).toEqual([
      ['alerts/evaluation/engine.ts', 'alerts/evaluation/rule.ts', 'alerts/dispatch/route/routing.ts'],
      ['alerts/evaluation/engine.ts', 'alerts/matchers/matchers.ts', 'alerts/dispatch/outbox.ts'],
      ['alerts/evaluation/rule.ts', 'alerts/dispatch/route/routing.ts'],
    ]);
  });

  it('the check finds what was notified kept outside the notification log: alerts.json reaching dispatch, or dispatch writing it', () => {
    const graph = new Map([
      ['alerts/evaluation/engine.ts', ['alerts/state/state-store.ts']],
      ['alerts/state/state-store.ts', ['alerts/dispatch/flap/flap-damper.ts', 'alerts/state/durable-file.ts']],
      ['alerts/dispatch/nflog/nflog.ts', ['alerts/state/durable-file.ts', 'alerts/state/state-store.ts']],
    ]);
    expect(layerViolations(graph, ALERT_LAYERS)).toEqual([
      ['alerts/evaluation/engine.ts', 'alerts/state/state-store.ts'],
      ['alerts/dispatch/nflog/nflog.ts', 'alerts/state/state-store.ts'],
      ['alerts/state/state-store.ts', 'alerts/dispatch/flap/flap-damper.ts'],
    ]);
  });

  it("the check finds a view reading dispatch's verdicts from dispatch's own state, not through the plane", () => {
    const graph = new Map([
      [
        'server/alerts-section.ts',
        [
          'alerts/alert-plane.ts',
          'alerts/dispatch/verdicts.ts',
          'alerts/dispatch/flap/flap-damper.ts',
          'alerts/dispatch/silence/silences.ts',
        ],
      ],
      ['server/routes/alertmanager-api.ts', ['alerts/dispatch/nflog/notified-alerts.ts']],
      // The plane wires everything: a view reaching dispatch through it is no violation.
      ['alerts/alert-plane.ts', ['alerts/dispatch/dispatcher.ts']],
    ]);
    expect(layerViolations(graph, ALERT_LAYERS)).toEqual([
      ['server/alerts-section.ts', 'alerts/dispatch/flap/flap-damper.ts'],
      ['server/routes/alertmanager-api.ts', 'alerts/dispatch/nflog/notified-alerts.ts'],
    ]);
  });
});
