/**
 * When each family last changed for each target, as snapshot versions: what lets the alert sweep
 * tell that a rule's inputs for a target are as they were at its last evaluation, without reading
 * them. A number per family a target ever held (about 60 kept families: half a kilobyte a target),
 * not a map per target.
 */
export class TargetFamilyChanges {
  private readonly indexOf = new Map<string, number>();
  /** Per target: [the version its record started at, then the version each family last changed at, by index]. */
  private readonly byTarget = new Map<string, number[]>();

  changed(target: string, family: string, version: number): void {
    let index = this.indexOf.get(family);
    if (index === undefined) this.indexOf.set(family, (index = this.indexOf.size + 1));
    let versions = this.byTarget.get(target);
    if (!versions) this.byTarget.set(target, (versions = [version]));
    while (versions.length <= index) versions.push(0);
    versions[index] = version;
  }

  /**
   * The latest version at which any of `families` changed for `target`: at least the version its
   * record started at, since what it held before that is not known. A target with no record reads as
   * changed now (`current`).
   */
  latest(target: string, families: Iterable<string>, current: number): number {
    const versions = this.byTarget.get(target);
    if (!versions) return current;
    let latest = versions[0];
    for (const family of families) {
      const index = this.indexOf.get(family);
      if (index !== undefined && index < versions.length) latest = Math.max(latest, versions[index]);
    }
    return latest;
  }

  /** The target is held by no slice any more. */
  forget(target: string): void {
    this.byTarget.delete(target);
  }
}
