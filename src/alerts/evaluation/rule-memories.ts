/**
 * What rules keep between evaluations (RuleContext.memory), per rule and scope: a target's name, or
 * FLEET_SCOPE. A memory is made when a rule first asks for it and dropped once the rule has emptied
 * it: few rules remember anything, and an empty map for every rule and target of a 1,000-node fleet
 * held 8 MB.
 */
export class RuleMemories {
  private readonly byRule = new Map<string, Map<string, Map<string, unknown>>>();

  of(rule: string, scope: string): Map<string, unknown> {
    let byScope = this.byRule.get(rule);
    if (!byScope) this.byRule.set(rule, (byScope = new Map()));
    let memory = byScope.get(scope);
    if (!memory) byScope.set(scope, (memory = new Map()));
    return memory;
  }

  /** Whether the rule remembers anything for the scope. */
  holds(rule: string, scope: string): boolean {
    return (this.byRule.get(rule)?.get(scope)?.size ?? 0) > 0;
  }

  /** An empty memory is the same as none: a rule forgets what it no longer sees, and so do we. */
  dropIfEmpty(rule: string, scope: string): void {
    const byScope = this.byRule.get(rule);
    if (byScope?.get(scope)?.size === 0) byScope.delete(scope);
  }
}

/** The scope of the fleet-wide evaluation, which sees every target at once. */
export const FLEET_SCOPE = '*';
