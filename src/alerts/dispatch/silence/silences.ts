import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../../schedule/clock.js';
import { CoalescedWrite } from '../../state/coalesced-write.js';
import { readStateFile } from '../../state/durable-file.js';
import { WriteFailures } from '../../state/write-failures.js';
import { CLIENT_MAX_PROGRAM_SIZE } from '../../matchers/linear-regex.js';
import { EMPTY_UNIVERSE, matchesEveryAlert, type AlertUniverse } from './match-all.js';
import { buildMatcher, formatMatcher, matchesAll, type Matcher, type MatchOp } from '../../matchers/matchers.js';

/** A matcher as Alertmanager's API v2 writes it. */
export interface ApiMatcher {
  readonly name: string;
  readonly value: string;
  readonly isRegex: boolean;
  readonly isEqual?: boolean;
}

export interface Silence {
  readonly id: string;
  readonly matchers: readonly ApiMatcher[];
  readonly startsAt: string;
  readonly endsAt: string;
  readonly createdBy: string;
  readonly comment: string;
  readonly updatedAt: string;
}

export type SilenceState = 'pending' | 'active' | 'expired';

/** A silence someone posted: with an id it updates that silence, as in Alertmanager. */
export interface PostableSilence {
  readonly id?: string;
  readonly matchers: readonly ApiMatcher[];
  readonly startsAt: string;
  readonly endsAt: string;
  readonly createdBy: string;
  readonly comment: string;
}

/** Expired silences stay listed this long (Alertmanager's default retention), then are forgotten. */
const EXPIRED_RETENTION_MS = 5 * 86_400_000;

/**
 * Caps in the spirit of Alertmanager's --silences.max-silences and --silences.max-silence-size-bytes,
 * so neither memory, CPU, silences.json nor the status page grows with what clients post.
 */
export const SILENCE_LIMITS = {
  /** Active and pending silences at once. */
  maxSilences: 500,
  /** Expired silences kept for listing, the most recently ended first: create-expire-repeat cannot grow the state. */
  maxExpired: 500,
  /** The posted silence as JSON. */
  maxSizeBytes: 8 * 1024,
  maxMatchers: 32,
  maxValueLength: 1_024,
  maxTextLength: 2_048,
  maxDurationMs: 30 * 86_400_000,
  /**
   * What the regex matchers of all active and pending silences may hold together: their RE2
   * programs (about 350 bytes of memory an instruction, so about 6 MB, and about 0.2 s of CPU to
   * compile them all at start) and their patterns' length.
   * Literal patterns (`a|b`, `node-.*`, `.+`) need no program and count by length only.
   */
  regexBudget: { instructions: 16_000, patternChars: 512 * 1024 },
} as const;

/** RFC 3339 with a zone, as Alertmanager's API requires; Date.parse alone takes many other shapes. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class SilenceError extends Error {}

/** What a silence holds while it can mute: its matchers compiled once, their cost, and whether it mutes everything. */
interface Armed {
  readonly matchers: readonly Matcher[];
  readonly cost: RegexCost;
  matchesEveryAlert: boolean;
}

interface RegexCost {
  readonly instructions: number;
  readonly patternChars: number;
}

interface Held {
  readonly silence: Silence;
  /** Its times parsed once: each evaluation asks every silence whether it is active. */
  readonly startsMs: number;
  readonly endsMs: number;
  /** Undefined once expired: an expired silence mutes nothing and holds no program. */
  armed?: Armed;
}

function hold(silence: Silence, armed?: Armed): Held {
  return { silence, startsMs: Date.parse(silence.startsAt), endsMs: Date.parse(silence.endsAt), armed };
}

export interface SilencesOptions {
  /** The alerts this daemon can raise, to tell a silence that would mute every one of them. */
  readonly universe?: AlertUniverse;
  /** The now of a call that names none. */
  readonly clock?: Clock;
  readonly failures?: WriteFailures;
}

/**
 * Silences as in Alertmanager: matchers and a time window; a firing alert they match sends no
 * notification. Kept in `<state_dir>/silences.json`, written in the background after changes, so
 * they survive restarts. A silence's regexes are compiled once, when it is posted or loaded, and
 * paid for from one budget shared by all silences; matching an alert never compiles.
 */
export class Silences {
  private readonly file: string;
  private readonly held = new Map<string, Held>();
  private readonly writer: CoalescedWrite;
  private universe: AlertUniverse;
  private readonly clock: Clock;
  private revisionValue = 0;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    { universe = EMPTY_UNIVERSE, clock = systemClock, failures = new WriteFailures(log) }: SilencesOptions = {},
  ) {
    this.file = join(stateDir, 'silences.json');
    this.universe = universe;
    this.clock = clock;
    this.writer = new CoalescedWrite(
      this.file,
      () => JSON.stringify({ version: 1, silences: [...this.held.values()].map((held) => held.silence) }),
      { failed: (error) => failures.failed('silences', error), succeeded: () => failures.succeeded('silences') },
    );
    this.load();
  }

  /** Every silence kept: at most maxSilences unexpired and maxExpired expired ones. */
  list(nowMs = this.clock.now()): Array<Silence & { state: SilenceState }> {
    this.prune(nowMs);
    return [...this.held.values()].map((held) => ({ ...held.silence, state: stateOf(held, nowMs) }));
  }

  /** Silences by state, and the unexpired ones that match every alert: for the metrics, without copying the silences. */
  counts(nowMs = this.clock.now()): Record<SilenceState, number> & { matchingEveryAlert: number } {
    this.prune(nowMs);
    const counts = { active: 0, pending: 0, expired: 0, matchingEveryAlert: 0 };
    for (const held of this.held.values()) {
      counts[stateOf(held, nowMs)]++;
      if (held.armed?.matchesEveryAlert) counts.matchingEveryAlert++;
    }
    return counts;
  }

  get(id: string, nowMs = this.clock.now()): (Silence & { state: SilenceState }) | undefined {
    const held = this.held.get(id);
    return held && { ...held.silence, state: stateOf(held, nowMs) };
  }

  /**
   * Creates a silence, or updates the one with the given id; returns its id. A silence that would
   * match every alert is refused unless `allowMatchAll`: it would hide the pager, this one included.
   */
  upsert(posted: PostableSilence, nowMs = this.clock.now(), { allowMatchAll = false } = {}): string {
    const { matchers, starts, ends } = validateShape(posted);
    if (ends <= starts) throw new SilenceError('endsAt: must be after startsAt');
    if (ends - starts > SILENCE_LIMITS.maxDurationMs)
      throw new SilenceError(`endsAt: a silence lasts at most ${SILENCE_LIMITS.maxDurationMs / 86_400_000} days; renew it when it ends`);
    if (posted.id !== undefined && !this.held.has(posted.id)) throw new SilenceError(`silence ${posted.id} not found`);
    this.prune(nowMs);
    const previous = posted.id === undefined ? undefined : this.held.get(posted.id);
    if (previous && !previous.armed) throw new SilenceError(`silence ${posted.id} has expired and cannot be updated`);
    if (!previous && this.unexpiredCount() >= SILENCE_LIMITS.maxSilences) {
      throw new SilenceError(`at most ${SILENCE_LIMITS.maxSilences} active or pending silences are kept; expire some first`);
    }
    const armed = this.arm(matchers, this.budgetLeft(posted.id));
    if (!allowMatchAll && armed.matchesEveryAlert) {
      throw new SilenceError(
        'matchers: this silence would match every alert (AvaxmonNotificationsFailing included); add ?allow_match_all=true to the request if that is really meant',
      );
    }
    const silence: Silence = {
      id: posted.id ?? randomUUID(),
      matchers,
      startsAt: new Date(starts).toISOString(),
      endsAt: new Date(ends).toISOString(),
      createdBy: posted.createdBy,
      comment: posted.comment,
      updatedAt: new Date(nowMs).toISOString(),
    };
    this.held.set(silence.id, hold(silence, armed));
    this.changed();
    this.log.info(
      { silence: silence.id, matchers: describe(silence), endsAt: silence.endsAt, createdBy: silence.createdBy },
      'Silence saved',
    );
    return silence.id;
  }

  /** Ends a silence now; false when there is no such silence. */
  expire(id: string, nowMs = this.clock.now()): boolean {
    const held = this.held.get(id);
    if (!held) return false;
    if (stateOf(held, nowMs) !== 'expired') {
      const now = new Date(nowMs).toISOString();
      const { silence } = held;
      this.held.set(id, hold({ ...silence, endsAt: now, startsAt: held.startsMs > nowMs ? now : silence.startsAt, updatedAt: now }));
      this.prune(nowMs);
      this.changed();
      this.log.info({ silence: id }, 'Silence expired');
    }
    return true;
  }

  /** Whether an unexpired silence mutes every alert of every enabled rule on every configured target; decided when it was armed. */
  matchesEveryAlert(silence: Pick<Silence, 'id'>): boolean {
    return this.held.get(silence.id)?.armed?.matchesEveryAlert ?? false;
  }

  /** On a reload: rules, targets or receivers changed, so what "every alert" means did too. */
  setUniverse(universe: AlertUniverse): void {
    this.universe = universe;
    for (const { armed } of this.held.values()) if (armed) armed.matchesEveryAlert = matchesEveryAlert(armed.matchers, universe);
  }

  /** The ids of the active silences that match these labels. */
  silencing(labels: Readonly<Record<string, string>>, nowMs: number): string[] {
    const ids: string[] = [];
    for (const held of this.held.values()) {
      if (held.armed && stateOf(held, nowMs) === 'active' && matchesAll(held.armed.matchers, labels)) ids.push(held.silence.id);
    }
    return ids;
  }

  /**
   * What a listing depends on besides the time: it moves with every change. With
   * nextTransitionMs, a listing can be kept until either moves.
   */
  get revision(): number {
    return this.revisionValue;
  }

  /** When the next silence starts, ends or is forgotten after `nowMs` (Infinity if none will): a listing changes then. */
  nextTransitionMs(nowMs: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const { startsMs, endsMs } of this.held.values()) {
      for (const moment of [startsMs, endsMs, endsMs + EXPIRED_RETENTION_MS]) if (moment > nowMs) next = Math.min(next, moment);
    }
    return next;
  }

  /** Resolves once silences.json holds every change made so far. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  private changed(): void {
    this.revisionValue++;
    this.writer.request();
  }

  /** Compiles a silence's matchers within `left` of the budget; throws naming the first matcher that does not fit. */
  private arm(matchers: readonly ApiMatcher[], left: RegexCost): Armed {
    let instructions = 0;
    let patternChars = 0;
    const compiled = matchers.map((matcher, index) => {
      const field = `matchers[${index}]`;
      let built: Matcher;
      try {
        built = buildMatcher(matcher.name, opOf(matcher), matcher.value, CLIENT_MAX_PROGRAM_SIZE);
      } catch (error) {
        throw new SilenceError(`${field}.value: ${(error as Error).message}`);
      }
      if (!('regex' in built)) return built;
      instructions += built.regex.instructions;
      patternChars += matcher.value.length;
      if (instructions > left.instructions || patternChars > left.patternChars) throw new SilenceError(overBudget(field, left));
      return built;
    });
    // A silence whose every matcher also matches the empty string would silence everything.
    if (compiled.every((matcher) => matchesAll([matcher], {})))
      throw new SilenceError('matchers: at least one matcher must not match the empty string');
    return { matchers: compiled, cost: { instructions, patternChars }, matchesEveryAlert: matchesEveryAlert(compiled, this.universe) };
  }

  /** The regex budget not held by unexpired silences other than `except`. */
  private budgetLeft(except?: string): RegexCost {
    let instructions = SILENCE_LIMITS.regexBudget.instructions;
    let patternChars = SILENCE_LIMITS.regexBudget.patternChars;
    for (const [id, { armed }] of this.held) {
      if (!armed || id === except) continue;
      instructions -= armed.cost.instructions;
      patternChars -= armed.cost.patternChars;
    }
    return { instructions, patternChars };
  }

  private unexpiredCount(): number {
    let count = 0;
    for (const { armed } of this.held.values()) if (armed) count++;
    return count;
  }

  /**
   * Disarms silences that ended (their programs are let go), forgets those ended more than the
   * retention ago, and keeps at most maxExpired expired ones, the most recently ended.
   */
  private prune(nowMs: number): void {
    const expired: Held[] = [];
    let changed = false;
    for (const [id, held] of this.held) {
      if (stateOf(held, nowMs) !== 'expired') continue;
      held.armed = undefined;
      if (nowMs - held.endsMs > EXPIRED_RETENTION_MS) changed = this.held.delete(id);
      else expired.push(held);
    }
    if (expired.length > SILENCE_LIMITS.maxExpired) {
      expired.sort((a, b) => a.endsMs - b.endsMs);
      for (const { silence } of expired.slice(0, expired.length - SILENCE_LIMITS.maxExpired)) this.held.delete(silence.id);
      changed = true;
    }
    if (changed) this.changed();
  }

  private load(): void {
    const text = readStateFile(this.file);
    if (text === undefined) return;
    let stored: Silence[];
    try {
      stored = (JSON.parse(text) as { silences: Silence[] }).silences;
      if (!Array.isArray(stored)) throw new Error('no silences array');
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Silences unreadable; starting with none');
      return;
    }
    const nowMs = this.clock.now();
    // A file written by an older version, or by hand, gets the checks a posted silence gets, the budget included.
    for (const silence of stored.slice(0, SILENCE_LIMITS.maxSilences + SILENCE_LIMITS.maxExpired)) {
      try {
        this.loadOne(silence, nowMs);
      } catch (error) {
        this.log.error(
          { file: this.file, silence: String(silence?.id).slice(0, 64), reason: (error as Error).message },
          'Stored silence refused; it is dropped',
        );
      }
    }
    this.prune(nowMs);
  }

  private loadOne(silence: Silence, nowMs: number): void {
    const { matchers } = validateShape(silence);
    if (typeof silence.id !== 'string') throw new SilenceError('id: must be a string');
    const held = hold({ ...silence, matchers });
    if (stateOf(held, nowMs) === 'expired') {
      this.held.set(silence.id, held);
      return;
    }
    if (this.unexpiredCount() >= SILENCE_LIMITS.maxSilences)
      throw new SilenceError(`at most ${SILENCE_LIMITS.maxSilences} active or pending silences are kept`);
    this.held.set(silence.id, hold(held.silence, this.arm(matchers, this.budgetLeft())));
  }
}

function overBudget(field: string, left: RegexCost): string {
  const { instructions, patternChars } = SILENCE_LIMITS.regexBudget;
  return (
    `${field}.value: the regex budget shared by all silences is spent ` +
    `(${instructions - left.instructions} of ${instructions} RE2 instructions and ${patternChars - left.patternChars} of ${patternChars} pattern characters in use); ` +
    'expire silences, or use literal patterns like a|b or prefix.*, which need no program'
  );
}

export function opOf(matcher: ApiMatcher): MatchOp {
  const equal = matcher.isEqual ?? true;
  return matcher.isRegex ? (equal ? '=~' : '!~') : equal ? '=' : '!=';
}

export function describe(silence: Pick<Silence, 'matchers'>): string {
  return silence.matchers.map((matcher) => formatMatcher({ ...matcher, op: opOf(matcher) })).join(', ');
}

function stateOf({ startsMs, endsMs }: Pick<Held, 'startsMs' | 'endsMs'>, nowMs: number): SilenceState {
  if (endsMs <= nowMs) return 'expired';
  return startsMs > nowMs ? 'pending' : 'active';
}

/** What every silence, posted or stored, must satisfy (an expired one may end where it starts), naming the bad field. */
function validateShape(posted: PostableSilence): { matchers: ApiMatcher[]; starts: number; ends: number } {
  if (Buffer.byteLength(JSON.stringify(posted)) > SILENCE_LIMITS.maxSizeBytes)
    throw new SilenceError(`body: a silence is at most ${SILENCE_LIMITS.maxSizeBytes} bytes`);
  if (!Array.isArray(posted.matchers) || posted.matchers.length === 0) throw new SilenceError('matchers: at least one matcher is required');
  if (posted.matchers.length > SILENCE_LIMITS.maxMatchers) throw new SilenceError(`matchers: at most ${SILENCE_LIMITS.maxMatchers}`);
  const matchers = posted.matchers.map(validMatcher);
  const starts = rfc3339(posted.startsAt, 'startsAt');
  const ends = rfc3339(posted.endsAt, 'endsAt');
  text(posted.createdBy, 'createdBy');
  text(posted.comment, 'comment');
  return { matchers, starts, ends };
}

function validMatcher(matcher: ApiMatcher, index: number): ApiMatcher {
  const field = `matchers[${index}]`;
  if (typeof matcher?.name !== 'string' || !LABEL_NAME.test(matcher.name)) throw new SilenceError(`${field}.name: must be a label name`);
  if (typeof matcher.value !== 'string') throw new SilenceError(`${field}.value: must be a string`);
  if (matcher.value.length > SILENCE_LIMITS.maxValueLength)
    throw new SilenceError(`${field}.value: at most ${SILENCE_LIMITS.maxValueLength} characters`);
  for (const flag of ['isRegex', 'isEqual'] as const) {
    if (matcher[flag] !== undefined && typeof matcher[flag] !== 'boolean')
      throw new SilenceError(`${field}.${flag}: must be true or false`);
  }
  return { name: matcher.name, value: matcher.value, isRegex: matcher.isRegex === true, isEqual: matcher.isEqual ?? true };
}

function rfc3339(value: unknown, field: string): number {
  const ms = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new SilenceError(`${field}: must be an RFC 3339 time like 2026-11-24T15:00:00Z`);
  return ms;
}

function text(value: unknown, field: string): void {
  if (typeof value !== 'string' || value === '') throw new SilenceError(`${field}: required`);
  if (value.length > SILENCE_LIMITS.maxTextLength) throw new SilenceError(`${field}: at most ${SILENCE_LIMITS.maxTextLength} characters`);
}
