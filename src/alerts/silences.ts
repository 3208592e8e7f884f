import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { writeFileDurably } from './durable-file.js';
import { formatMatcher, matchesAll, type Matcher } from './matchers.js';

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

export class SilenceError extends Error {}

/**
 * Silences as in Alertmanager: matchers and a time window; a firing alert they match sends no
 * notification. Kept in `<state_dir>/silences.json`, written durably on every change, so they
 * survive restarts.
 */
export class Silences {
  private readonly file: string;
  private readonly silences = new Map<string, Silence>();

  constructor(stateDir: string, private readonly log: Logger) {
    this.file = join(stateDir, 'silences.json');
    this.load();
  }

  list(nowMs = Date.now()): Array<Silence & { state: SilenceState }> {
    this.forgetOld(nowMs);
    return [...this.silences.values()].map((silence) => ({ ...silence, state: stateOf(silence, nowMs) }));
  }

  get(id: string, nowMs = Date.now()): (Silence & { state: SilenceState }) | undefined {
    const silence = this.silences.get(id);
    return silence && { ...silence, state: stateOf(silence, nowMs) };
  }

  /** Creates a silence, or updates the one with the given id; returns its id. */
  upsert(posted: PostableSilence, nowMs = Date.now()): string {
    const matchers = validate(posted);
    if (posted.id !== undefined && !this.silences.has(posted.id)) throw new SilenceError(`silence ${posted.id} not found`);
    const previous = posted.id === undefined ? undefined : this.silences.get(posted.id);
    if (previous && stateOf(previous, nowMs) === 'expired') throw new SilenceError(`silence ${posted.id} has expired and cannot be updated`);
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
    this.log.info({ silence: silence.id, matchers: describe(silence), endsAt: silence.endsAt, createdBy: silence.createdBy }, 'Silence saved');
    return silence.id;
  }

  /** Ends a silence now; false when there is no such silence. */
  expire(id: string, nowMs = Date.now()): boolean {
    const silence = this.silences.get(id);
    if (!silence) return false;
    if (stateOf(silence, nowMs) !== 'expired') {
      const now = new Date(nowMs).toISOString();
      this.silences.set(id, { ...silence, endsAt: now, startsAt: Date.parse(silence.startsAt) > nowMs ? now : silence.startsAt, updatedAt: now });
      this.save();
      this.log.info({ silence: id }, 'Silence expired');
    }
    return true;
  }

  /** The ids of the active silences that match these labels. */
  silencing(labels: Readonly<Record<string, string>>, nowMs: number): string[] {
    const ids: string[] = [];
    for (const silence of this.silences.values()) {
      if (stateOf(silence, nowMs) === 'active' && matchesAll(silence.matchers.map(toMatcher), labels)) ids.push(silence.id);
    }
    return ids;
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
    try {
      for (const silence of (JSON.parse(text) as { silences: Silence[] }).silences) this.silences.set(silence.id, silence);
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Silences unreadable; starting with none');
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

/** Checks a posted silence as Alertmanager does, naming the bad field. */
function validate(posted: PostableSilence): ApiMatcher[] {
  if (!Array.isArray(posted.matchers) || posted.matchers.length === 0) throw new SilenceError('matchers: at least one matcher is required');
  const matchers = posted.matchers.map((matcher, index) => {
    if (typeof matcher?.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(matcher.name)) throw new SilenceError(`matchers[${index}].name: must be a label name`);
    if (typeof matcher.value !== 'string') throw new SilenceError(`matchers[${index}].value: must be a string`);
    const normalized: ApiMatcher = { name: matcher.name, value: matcher.value, isRegex: Boolean(matcher.isRegex), isEqual: matcher.isEqual ?? true };
    if (normalized.isRegex) {
      try {
        new RegExp(`^(?:${normalized.value})$`);
      } catch (error) {
        throw new SilenceError(`matchers[${index}].value: invalid regular expression: ${(error as Error).message}`);
      }
    }
    return normalized;
  });
  // A silence whose every matcher also matches the empty string would silence everything.
  if (matchers.every((matcher) => matchesAll([toMatcher(matcher)], {}))) throw new SilenceError('matchers: at least one matcher must not match the empty string');
  const starts = Date.parse(posted.startsAt);
  const ends = Date.parse(posted.endsAt);
  if (Number.isNaN(starts)) throw new SilenceError('startsAt: must be an RFC 3339 time');
  if (Number.isNaN(ends)) throw new SilenceError('endsAt: must be an RFC 3339 time');
  if (ends <= starts) throw new SilenceError('endsAt: must be after startsAt');
  if (typeof posted.createdBy !== 'string' || posted.createdBy === '') throw new SilenceError('createdBy: required');
  if (typeof posted.comment !== 'string' || posted.comment === '') throw new SilenceError('comment: required');
  return matchers;
}
