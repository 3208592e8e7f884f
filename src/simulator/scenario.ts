import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseDuration } from '../config/duration.js';
import { applyStep } from './actions.js';
import type { SimState } from './state.js';

export interface Scenario {
  /** Restart the timeline after this long; absent means run once. */
  readonly loopMs?: number;
  readonly steps: ReadonlyArray<{ atMs: number; step: Record<string, unknown> }>;
}

const BUILTIN_SCENARIOS_DIR = new URL('../../scenarios/', import.meta.url);

/** A scenario that cannot be found or read: a usage problem, said in one line. */
export class ScenarioError extends Error {}

/** Loads a scenario by file path, or by built-in name (`demo` → scenarios/demo.yaml). */
export function loadScenario(nameOrPath: string): Scenario {
  const file = /[/.]/.test(nameOrPath) ? nameOrPath : new URL(`${nameOrPath}.yaml`, BUILTIN_SCENARIOS_DIR);
  if (!existsSync(file)) {
    const builtIn = readdirSync(BUILTIN_SCENARIOS_DIR).map((name) => name.replace(/\.yaml$/, ''));
    throw new ScenarioError(`--scenario: no scenario "${nameOrPath}" (built in: ${builtIn.join(', ')}; or a path to a YAML file)`);
  }
  const document = parse(readFileSync(file, 'utf8')) as { loop?: string; steps?: Array<Record<string, unknown>> };
  const steps = (document.steps ?? []).map((step, index) => {
    const atMs = parseDuration(String(step.at ?? '0s'));
    if (atMs === undefined) throw new Error(`scenario step ${index}: bad "at" ${String(step.at)}`);
    return { atMs, step };
  });
  const loopMs = document.loop === undefined ? undefined : parseDuration(document.loop);
  return { loopMs, steps: steps.sort((a, b) => a.atMs - b.atMs) };
}

/**
 * The scenario played `factor` times faster: each step and the loop come that much sooner. Durations
 * inside a step (a fault's `for:`) keep their length.
 */
export function speedUp(scenario: Scenario, factor: number): Scenario {
  return {
    loopMs: scenario.loopMs === undefined ? undefined : scenario.loopMs / factor,
    steps: scenario.steps.map(({ atMs, step }) => ({ atMs: atMs / factor, step })),
  };
}

/** Plays a scenario against a state with timers; returns a function that stops it. */
export function playScenario(scenario: Scenario, state: SimState, onError: (error: Error) => void): () => void {
  const timers: NodeJS.Timeout[] = [];
  const playOnce = () => {
    for (const { atMs, step } of scenario.steps) {
      timers.push(
        setTimeout(() => {
          try {
            applyStep(state, step, Date.now());
          } catch (error) {
            onError(error as Error);
          }
        }, atMs),
      );
    }
  };
  playOnce();
  const loop = scenario.loopMs ? setInterval(playOnce, scenario.loopMs) : undefined;
  return () => {
    timers.forEach(clearTimeout);
    if (loop) clearInterval(loop);
  };
}
