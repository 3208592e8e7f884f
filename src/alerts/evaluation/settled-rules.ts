/**
 * Rules that found nothing for a target from its samples alone (no clock, no memory, no collector
 * lookup), with the snapshot version they read the samples at and the families they read. Evaluated
 * again over the same samples, such a rule finds nothing again: with no open alert of it on the
 * target, the evaluation would change nothing, and the sweep leaves it out until one of those
 * families changes for the target. Rules that read the clock (`for` is the engine's, but a
 * timestamp's age, a shrinking budget, an upcoming upgrade are the rule's), a memory or a
 * collector's state are never settled, nor is a rule with an open alert on the target (pending,
 * firing, held unknown or relearning: those move with time), so the sweep evaluates them every time.
 */
export class SettledRules {
  private readonly byTarget = new Map<string, Map<string, Settled>>();
  /** The families each rule read, shared between targets: they read the same ones. */
  private readonly interned = new Map<string, readonly string[]>();

  settle(target: string, rule: string, version: number, reads: ReadonlySet<string>): void {
    const families = [...reads];
    const key = families.join(' ');
    let shared = this.interned.get(key);
    if (!shared) this.interned.set(key, (shared = families));
    let rules = this.byTarget.get(target);
    if (!rules) this.byTarget.set(target, (rules = new Map()));
    rules.set(rule, { version, families: shared });
  }

  /**
   * The rules to evaluate for `target`: every rule with an open alert there (`openRules`, whether
   * still enabled or not: a full sweep resolves the alerts of a rule a reload disabled), and of
   * `rules` all but the settled ones whose families did not change since (`changedSince` gives the
   * latest version at which any of them changed).
   */
  unsettled(
    target: string,
    rules: readonly string[],
    changedSince: (families: readonly string[]) => number,
    openRules: ReadonlySet<string>,
  ): Set<string> {
    const settled = this.byTarget.get(target);
    const out = new Set<string>(openRules);
    for (const rule of rules) {
      const entry = settled?.get(rule);
      if (entry && !openRules.has(rule) && changedSince(entry.families) <= entry.version) continue;
      settled?.delete(rule);
      out.add(rule);
    }
    return out;
  }

  /** Forgets the targets not in `targets` (no longer swept), or every one (the rules changed). */
  retain(targets?: ReadonlySet<string>): void {
    for (const target of this.byTarget.keys()) if (!targets?.has(target)) this.byTarget.delete(target);
    if (!targets) this.interned.clear();
  }
}

interface Settled {
  /** The snapshot version the samples were read at. */
  readonly version: number;
  readonly families: readonly string[];
}
