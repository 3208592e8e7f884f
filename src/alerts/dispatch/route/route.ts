import { formatMatcher, matchesAll, type Matcher } from '../../matchers/matchers.js';

type Labels = Readonly<Record<string, string>>;

/** What a route decides for the alerts it takes, inherited by its children unless they set it. */
export interface RouteOptions {
  readonly receiver: string;
  /** Label names; ['...'] groups by every label; [] puts every alert of the route in one group. */
  readonly groupBy: readonly string[];
  readonly groupWaitMs: number;
  readonly groupIntervalMs: number;
  readonly repeatIntervalMs: number;
  /** Names of time_intervals: not inherited, as in Alertmanager. */
  readonly muteTimeIntervals: readonly string[];
  readonly activeTimeIntervals: readonly string[];
}

/**
 * A node of Alertmanager's routing tree (dispatch/route.go): an alert enters at the root, goes down
 * the first child whose matchers it satisfies (and on to the next siblings if that child says
 * `continue`), and is taken by the deepest routes it reaches.
 */
export class Route {
  readonly routes: Route[] = [];

  constructor(
    readonly options: RouteOptions,
    /** Sorted as Alertmanager sorts them: by name, value, then type. */
    readonly matchers: readonly Matcher[],
    readonly continues: boolean,
    readonly parent?: Route,
  ) {}

  /** The routes that take these labels, depth first, left to right; none when the root's matchers fail. */
  match(labels: Labels): Route[] {
    if (!matchesAll(this.matchers, labels)) return [];
    const taken: Route[] = [];
    for (const child of this.routes) {
      const matches = child.match(labels);
      taken.push(...matches);
      if (matches.length > 0 && !child.continues) break;
    }
    return taken.length > 0 ? taken : [this];
  }

  /** Alertmanager's route key, the first half of a groupKey: the matchers of the path from the root. */
  key(): string {
    const own = `{${this.matchers.map(matcherText).join(',')}}`;
    return this.parent ? `${this.parent.key()}/${own}` : own;
  }

  /** Unique in the tree: the key with each node's index among its siblings (Alertmanager's Route.ID). */
  id(): string {
    if (!this.parent) return this.key();
    return `${this.parent.id()}/{${this.matchers.map(matcherText).join(',')}}/${this.parent.routes.indexOf(this)}`;
  }

  root(): Route {
    return this.parent ? this.parent.root() : this;
  }

  /** This route and every route under it, depth first. */
  *walk(): Generator<Route> {
    yield this;
    for (const child of this.routes) yield* child.walk();
  }
}

const MATCH_TYPE_ORDER = ['=', '!=', '=~', '!~'];

/** Alertmanager's matcher order within a route. */
export function compareMatchers(a: Matcher, b: Matcher): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.value !== b.value) return a.value < b.value ? -1 : 1;
  return MATCH_TYPE_ORDER.indexOf(a.op) - MATCH_TYPE_ORDER.indexOf(b.op);
}

/** As Alertmanager prints a matcher in a route key: name, operator, the value quoted with \, " and newlines escaped. */
function matcherText(matcher: Matcher): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(matcher.name)) return formatMatcher(matcher);
  const value = matcher.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return `${matcher.name}${matcher.op}"${value}"`;
}
