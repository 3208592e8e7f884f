import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../clock.js';
import { writeFileDurably } from '../state/durable-file.js';
import { checkedRegex, formatMatcher, matchesAll, type Matcher } from './matchers.js';
import { SEVERITIES } from '../evaluation/rule.js';

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
 * so neither memory, silences.json nor the status page grows with what clients post.
 */
export const SILENCE_LIMITS = {
  /** Active and pending silences at once. */
  maxSilences: 500,
  /** The posted silence as JSON. */
  maxSizeBytes: 8 * 1024,
  maxMatchers: 32,
  maxValueLength: 1_024,
  maxTextLength: 2_048,
  maxDurationMs: 30 * 86_400_000,
} as const;

/** RFC 3339 with a zone, as Alertmanager's API requires; Date.parse alone takes many other shapes. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A target name nobody picks, standing for "any target" when asking whether a silence matches every alert. */
const ANY_TARGET = 'any-target-0f7c2a';

export class SilenceError extends Error {}

/**
 * Silences as in Alertmanager: matchers and a time window; a firing alert they match sends no
 * notification. Kept in `<state_dir>/silences.json`, written durably on every change, so they
 * survive restarts.
 */
export class Silences {
  private readonly file: string;
  private readonly silences = new Map<string, Silence>();

  /**
   * `alertnames`: every rule that can fire, to tell a silence that would match every alert. `clock`:
   * the now of a call that names none.
   */
  constructor(
    stateDir: string,
    private readonly log: Logger,
    private readonly alertnames: readonly string[] = [],
    private readonly clock: Clock = systemClock,
  ) {
    this.file = join(stateDir, 'silences.json');
    this.load();
  }

  list(nowMs = this.clock.now()): Array<Silence & { state: SilenceState }> {
    this.forgetOld(nowMs);
    return [...this.silences.values()].map((silence) => ({ ...silence, state: stateOf(silence, nowMs) }));
  }

  get(id: string, nowMs = this.clock.now()): (Silence & { state: SilenceState }) | undefined {
    const silence = this.silences.get(id);
    return silence && { ...silence, state: stateOf(silence, nowMs) };
  }

  /**
   * Creates a silence, or updates the one with the given id; returns its id. A silence that would
   * match every alert is refused unless `allowMatchAll`: it would hide the pager, this one included.
   */
  upsert(posted: PostableSilence, nowMs = this.clock.now(), { allowMatchAll = false } = {}): string {
    const matchers = validate(posted);
    if (posted.id !== undefined && !this.silences.has(posted.id)) throw new SilenceError(`silence ${posted.id} not found`);
    const previous = posted.id === undefined ? undefined : this.silences.get(posted.id);
    if (previous && stateOf(previous, nowMs) === 'expired')
      throw new SilenceError(`silence ${posted.id} has expired and cannot be updated`);
    if (!previous && this.unexpiredCount(nowMs) >= SILENCE_LIMITS.maxSilences) {
      throw new SilenceError(`at most ${SILENCE_LIMITS.maxSilences} active or pending silences are kept; expire some first`);
    }
    if (!allowMatchAll && this.matchesEveryAlert({ matchers })) {
      throw new SilenceError(
        'matchers: this silence would match every alert (AvaxmonNotificationsFailing included); add ?allow_match_all=true to the request if that is really meant',
      );
    }
    const silence: Silence = {
      id: posted.id ?? randomUUID(),
      matchers,
      startsAt: new Date(Date.parse(posted.startsAt)).toISOString(),
      endsAt: new Date(Date.parse(posted.endsAt)).toISOString(),
      createdBy: posted.createdBy,
      comment: posted.comment,
      updatedAt: new Date(nowMs).toISOString(),
    };
    this.silences.set(silence.id, silence);
    this.save();
    this.log.info(
      { silence: silence.id, matchers: describe(silence), endsAt: silence.endsAt, createdBy: silence.createdBy },
      'Silence saved',
    );
    return silence.id;
  }

  /** Ends a silence now; false when there is no such silence. */
  expire(id: string, nowMs = this.clock.now()): boolean {
    const silence = this.silences.get(id);
    if (!silence) return false;
    if (stateOf(silence, nowMs) !== 'expired') {
      const now = new Date(nowMs).toISOString();
      this.silences.set(id, {
        ...silence,
        endsAt: now,
        startsAt: Date.parse(silence.startsAt) > nowMs ? now : silence.startsAt,
        updatedAt: now,
      });
      this.save();
      this.log.info({ silence: id }, 'Silence expired');
    }
    return true;
  }

  /** Whether a silence matches an alert of every rule, on any target and at any severity. */
  matchesEveryAlert(silence: Pick<Silence, 'matchers'>): boolean {
    const matchers = silence.matchers.map(toMatcher);
    return (
      this.alertnames.length > 0 &&
      this.alertnames.every((alertname) =>
        SEVERITIES.every((severity) => matchesAll(matchers, { alertname, severity, target: ANY_TARGET })),
      )
    );
  }

  /** The ids of the active silences that match these labels. */
  silencing(labels: Readonly<Record<string, string>>, nowMs: number): string[] {
    const ids: string[] = [];
    for (const silence of this.silences.values()) {
      if (stateOf(silence, nowMs) === 'active' && matchesAll(silence.matchers.map(toMatcher), labels)) ids.push(silence.id);
    }
    return ids;
  }

  private unexpiredCount(nowMs: number): number {
    let count = 0;
    for (const silence of this.silences.values()) if (stateOf(silence, nowMs) !== 'expired') count++;
    return count;
  }

  private forgetOld(nowMs: number): void {
    let changed = false;
    for (const [id, silence] of this.silences) {
      if (nowMs - Date.parse(silence.endsAt) > EXPIRED_RETENTION_MS) changed = this.silences.delete(id);
    }
    if (changed) this.save();
  }

  private save(): void {
    writeFileDurably(this.file, JSON.stringify({ version: 1, silences: [...this.silences.values()] }));
  }

  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let stored: Silence[];
    try {
      stored = (JSON.parse(text) as { silences: Silence[] }).silences;
      if (!Array.isArray(stored)) throw new Error('no silences array');
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Silences unreadable; starting with none');
      return;
    }
    // A file written by an older version, or by hand, gets the checks a posted silence gets.
    for (const silence of stored.slice(0, SILENCE_LIMITS.maxSilences)) {
      try {
        validateShape(silence);
        if (typeof silence.id !== 'string') throw new SilenceError('id: must be a string');
        this.silences.set(silence.id, silence);
      } catch (error) {
        this.log.error(
          { file: this.file, silence: String(silence?.id).slice(0, 64), reason: (error as Error).message },
          'Stored silence refused; it is dropped',
        );
      }
    }
  }
}

export function toMatcher(matcher: ApiMatcher): Matcher {
  const equal = matcher.isEqual ?? true;
  return { name: matcher.name, value: matcher.value, op: matcher.isRegex ? (equal ? '=~' : '!~') : equal ? '=' : '!=' };
}

export function describe(silence: Pick<Silence, 'matchers'>): string {
  return silence.matchers.map((matcher) => formatMatcher(toMatcher(matcher))).join(', ');
}

function stateOf(silence: Silence, nowMs: number): SilenceState {
  if (Date.parse(silence.endsAt) <= nowMs) return 'expired';
  return Date.parse(silence.startsAt) > nowMs ? 'pending' : 'active';
}

/** Checks a posted silence as Alertmanager does, and against SILENCE_LIMITS, naming the bad field. */
function validate(posted: PostableSilence): ApiMatcher[] {
  const { matchers, starts, ends } = validateShape(posted);
  if (ends <= starts) throw new SilenceError('endsAt: must be after startsAt');
  if (ends - starts > SILENCE_LIMITS.maxDurationMs)
    throw new SilenceError(`endsAt: a silence lasts at most ${SILENCE_LIMITS.maxDurationMs / 86_400_000} days; renew it when it ends`);
  return matchers;
}

/** What a stored silence must also satisfy: an expired one may end where it starts. */
function validateShape(posted: PostableSilence): { matchers: ApiMatcher[]; starts: number; ends: number } {
  if (Buffer.byteLength(JSON.stringify(posted)) > SILENCE_LIMITS.maxSizeBytes)
    throw new SilenceError(`body: a silence is at most ${SILENCE_LIMITS.maxSizeBytes} bytes`);
  if (!Array.isArray(posted.matchers) || posted.matchers.length === 0) throw new SilenceError('matchers: at least one matcher is required');
  if (posted.matchers.length > SILENCE_LIMITS.maxMatchers) throw new SilenceError(`matchers: at most ${SILENCE_LIMITS.maxMatchers}`);
  const matchers = posted.matchers.map(validMatcher);
  // A silence whose every matcher also matches the empty string would silence everything.
  if (matchers.every((matcher) => matchesAll([toMatcher(matcher)], {})))
    throw new SilenceError('matchers: at least one matcher must not match the empty string');
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
  const normalized: ApiMatcher = {
    name: matcher.name,
    value: matcher.value,
    isRegex: matcher.isRegex === true,
    isEqual: matcher.isEqual ?? true,
  };
  if (normalized.isRegex) {
    try {
      checkedRegex(normalized.value);
    } catch (error) {
      throw new SilenceError(`${field}.value: ${(error as Error).message}`);
    }
  }
  return normalized;
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
