import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { compiledPrograms } from '../../src/alerts/matchers/linear-regex.js';
import { systemClock } from '../../src/schedule/clock.js';
import { alertUniverse } from '../../src/alerts/dispatch/silence/match-all.js';
import { SILENCE_LIMITS, Silences, type ApiMatcher } from '../../src/alerts/dispatch/silence/silences.js';
import { CoalescedWrite } from '../../src/alerts/state/coalesced-write.js';
import { parseConfig } from '../../src/config/load.js';
import { silentLog } from './harness.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const stateDir = () => mkdtempSync(join(tmpdir(), 'avaxmon-silence-budget-'));

function posted(matchers: ApiMatcher[], hours = 1) {
  return {
    matchers,
    startsAt: new Date(NOW).toISOString(),
    endsAt: new Date(NOW + hours * 3_600_000).toISOString(),
    createdBy: 'ops',
    comment: 'budget',
  };
}

/** 32 regex matchers no literal shortcut takes, distinct from every other silence's: `n(a|b)-<silence>-<matcher>[0-9]+`. */
const distinctRegexes = (silence: number, pattern = (s: number, m: number) => `n(a|b)-${s}-${m}[0-9]+`): ApiMatcher[] =>
  Array.from({ length: SILENCE_LIMITS.maxMatchers }, (_, index) => ({ name: `l${index}`, value: pattern(silence, index), isRegex: true }));

/** About 120 RE2 instructions each: `(.*x){23}` and a distinct tail. */
const heavy = (silence: number, matcher: number) => `(.*x){23}${silence}-${matcher}`;

function capturedLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** Labels the 32 matchers of silence `silence` all match, with `value(silence, matcher)` for label l<matcher>. */
const labelsFor = (silence: number, value = (s: number, m: number) => `na-${s}-${m}7`): Record<string, string> => ({
  alertname: 'AvalancheNodeUnhealthy',
  target: `node-${silence}`,
  ...Object.fromEntries(Array.from({ length: SILENCE_LIMITS.maxMatchers }, (_, index) => [`l${index}`, value(silence, index)])),
});
const labelSets = Array.from({ length: 40 }, (_, index) => labelsFor(index));

describe('silence regexes are compiled once and paid for', () => {
  it('keeps 704 distinct patterns (past the old 512-entry cache) compiled: evaluation never compiles, a restart compiles each once', async () => {
    const dir = stateDir();
    const silences = new Silences(dir, silentLog);
    const before = compiledPrograms();
    for (let silence = 0; silence < 22; silence++) silences.upsert(posted(distinctRegexes(silence)), NOW);
    expect(compiledPrograms() - before).toBe(22 * 32);

    const compiled = compiledPrograms();
    for (let round = 0; round < 5; round++) for (const labels of labelSets) silences.silencing(labels, NOW + 1_000);
    expect(silences.silencing(labelSets[3], NOW + 1_000)).toHaveLength(1);
    expect(compiledPrograms()).toBe(compiled);

    await silences.flush();
    const restarted = new Silences(dir, silentLog, { clock: { ...systemClock, now: () => NOW + 1_000 } });
    expect(compiledPrograms() - compiled).toBe(22 * 32);
    const loaded = compiledPrograms();
    for (const labels of labelSets) restarted.silencing(labels, NOW + 1_000);
    expect(restarted.silencing(labelSets[3], NOW + 1_000)).toHaveLength(1);
    expect(compiledPrograms()).toBe(loaded);
  });

  it('takes literal patterns (a|b, prefix.*) without any program', () => {
    const silences = new Silences(stateDir(), silentLog);
    const before = compiledPrograms();
    for (let silence = 0; silence < 50; silence++) {
      silences.upsert(posted(distinctRegexes(silence, (s, m) => `node-${s}-${m}|validator-${s}-${m}.*`)), NOW);
    }
    expect(compiledPrograms()).toBe(before);
    expect(
      silences.silencing(
        labelsFor(7, (s, m) => (m % 2 ? `node-${s}-${m}` : `validator-${s}-${m}-x`)),
        NOW + 1,
      ),
    ).toHaveLength(1);
    expect(
      silences.silencing(
        labelsFor(7, (s, m) => `node-${s}-${m}-x`),
        NOW + 1,
      ),
    ).toHaveLength(0);
  });

  it('refuses a client pattern past 128 instructions, and a silence past the shared budget, naming the matcher; expiring frees the budget', () => {
    const silences = new Silences(stateDir(), silentLog);
    expect(() => silences.upsert(posted([{ name: 'target', value: '(.*x){30}', isRegex: true }]), NOW)).toThrow(
      /matchers\[0\]\.value: "\(\.\*x\)\{30\}" is too complex \(compiles to \d+ instructions, at most 128\)/,
    );
    const ids: string[] = [];
    let refusal: Error | undefined;
    for (let silence = 0; silence < 20 && !refusal; silence++) {
      try {
        ids.push(silences.upsert(posted(distinctRegexes(silence, heavy)), NOW));
      } catch (error) {
        refusal = error as Error;
      }
    }
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(refusal?.message).toMatch(
      /^matchers\[\d+\]\.value: the regex budget shared by all silences is spent \(\d+ of 16000 RE2 instructions/,
    );
    silences.expire(ids[0], NOW + 1);
    expect(() => silences.upsert(posted(distinctRegexes(99, heavy)), NOW + 2)).not.toThrow();
  });

  it('starts on a silences.json past the budget: loads what fits, drops the rest with a log line each', () => {
    const dir = stateDir();
    const silences = Array.from({ length: 12 }, (_, index) => ({
      id: `s${index}`,
      ...posted(distinctRegexes(index, heavy), 24 * 20),
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      updatedAt: new Date().toISOString(),
    }));
    writeFileSync(join(dir, 'silences.json'), JSON.stringify({ version: 1, silences }));
    const { log, lines } = capturedLog();
    const loaded = new Silences(dir, log).list();
    const dropped = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'Stored silence refused; it is dropped');
    expect(loaded.length).toBeGreaterThanOrEqual(3);
    expect(loaded.length + dropped.length).toBe(12);
    expect(dropped[0].reason).toMatch(/regex budget shared by all silences is spent/);
  });
});

describe('silence state is bounded', () => {
  it('keeps at most maxExpired expired silences however many are created and expired', async () => {
    const dir = stateDir();
    const silences = new Silences(dir, silentLog);
    for (let index = 0; index < SILENCE_LIMITS.maxExpired + 100; index++) {
      const id = silences.upsert(posted([{ name: 'target', value: `node-${index}`, isRegex: false }]), NOW + index);
      silences.expire(id, NOW + index + 1);
    }
    const now = NOW + 10_000;
    expect(silences.list(now)).toHaveLength(SILENCE_LIMITS.maxExpired);
    // The most recently ended are kept.
    expect(silences.list(now).some((silence) => silence.matchers[0].value === `node-${SILENCE_LIMITS.maxExpired + 99}`)).toBe(true);
    expect(silences.list(now).some((silence) => silence.matchers[0].value === 'node-0')).toBe(false);
    await silences.flush();
    expect(JSON.parse(readFileSync(join(dir, 'silences.json'), 'utf8')).silences).toHaveLength(SILENCE_LIMITS.maxExpired);
  });

  it('never writes through a link planted at silences.json.tmp', async () => {
    const dir = stateDir();
    const victim = join(mkdtempSync(join(tmpdir(), 'avaxmon-victim-')), 'victim');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dir, 'silences.json.tmp'));
    const silences = new Silences(dir, silentLog);
    const id = silences.upsert(posted([{ name: 'target', value: 'node-a', isRegex: false }]), NOW);
    await silences.flush();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(JSON.parse(readFileSync(join(dir, 'silences.json'), 'utf8')).silences[0].id).toBe(id);
    expect(() => lstatSync(join(dir, 'silences.json.tmp'))).toThrow(/ENOENT/);
  });

  it('writes a burst of changes once, and the changes made during a write once more', async () => {
    let renders = 0;
    const file = join(stateDir(), 'state.json');
    const writer = new CoalescedWrite(file, () => String(++renders), {
      failed: (error) => expect.fail(String(error)),
      succeeded: () => undefined,
    });
    for (let change = 0; change < 100; change++) writer.request();
    await writer.flush();
    expect(renders).toBe(1);
    writer.request();
    await new Promise((resolve) => setImmediate(resolve));
    for (let change = 0; change < 100; change++) writer.request();
    await writer.flush();
    expect(renders).toBeLessThanOrEqual(3);
    expect(readFileSync(file, 'utf8')).toBe(String(renders));
  });
});

describe('"matches every alert" is decided on the real rules and targets', () => {
  const config = parseConfig(`alerts:
  state_dir: ${stateDir()}
  receivers:
    - { name: hook, type: webhook, url: http://127.0.0.1:1/hook }
`).alerts!;
  const universe = alertUniverse(config, ['node-a', 'node-b']);
  const silences = new Silences(stateDir(), silentLog, { universe });
  const everything = { name: 'alertname', value: '.+', isRegex: true };
  const refused = (matchers: ApiMatcher[]) => {
    try {
      silences.upsert(posted(matchers), NOW);
      return false;
    } catch (error) {
      return /would match every alert/.test((error as Error).message);
    }
  };

  it('refuses what mutes every alert of every target, however it spares a name no alert has', () => {
    expect(refused([everything])).toBe(true);
    // The old check's sentinel target, and any value no alert has.
    expect(refused([everything, { name: 'target', value: 'any-target-0f7c2a', isRegex: false, isEqual: false }])).toBe(true);
    expect(refused([everything, { name: 'node_id', value: 'NodeID-none', isRegex: false, isEqual: false }])).toBe(true);
    expect(refused([everything, { name: 'node_id', value: '|NodeID-.+', isRegex: true }])).toBe(true);
    expect(refused([{ name: 'severity', value: 'critical|warning|info', isRegex: true }])).toBe(true);
  });

  it('accepts what spares a configured target, a rule, a severity, or alerts without a label', () => {
    expect(refused([everything, { name: 'target', value: 'node-a', isRegex: false, isEqual: false }])).toBe(false);
    expect(refused([{ name: 'alertname', value: 'AvaxmonNotificationsFailing', isRegex: false, isEqual: false }])).toBe(false);
    expect(refused([{ name: 'severity', value: 'critical|warning', isRegex: true }])).toBe(false);
    // AvaxmonNotificationsFailing and AvaxmonCollectionLagging have no target.
    expect(refused([{ name: 'target', value: 'node-.*', isRegex: true }])).toBe(false);
    expect(refused([everything, { name: 'node_id', value: 'NodeID-.+', isRegex: true }])).toBe(false);
  });

  it('flags a match-all silence that a reload made one (a target removed)', () => {
    const id = silences.upsert(posted([everything, { name: 'target', value: 'node-b', isRegex: false, isEqual: false }]), NOW);
    expect(silences.matchesEveryAlert({ id })).toBe(false);
    silences.setUniverse(alertUniverse(config, ['node-a']));
    expect(silences.matchesEveryAlert({ id })).toBe(true);
  });
});
