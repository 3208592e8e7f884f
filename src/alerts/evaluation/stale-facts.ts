import { FACTS_AGE, PAGE_FACTS } from '../../collectors/last-good-facts.js';
import { formatSeconds } from './rules/series-rule.js';
import type { AlertRule, Candidate } from './rule.js';
import type { SampleIndex } from './sample-index.js';

/**
 * A candidate of a rule reading page-deciding facts that a failing collector of its target serves
 * from its last good run says so: `stale_facts` names the collectors and how old their facts are,
 * so an operator paged on them knows they are not this minute's.
 */
export function markStale(rule: AlertRule, index: SampleIndex, candidates: readonly Candidate[]): readonly Candidate[] {
  const reads = [...rule.sources.map((source) => source.metric), ...(rule.alsoReads ?? [])];
  if (!reads.some((family) => PAGE_FACTS.has(family))) return candidates;
  return candidates.map((candidate) => {
    const target = candidate.labels.target;
    const ages = target === undefined ? [] : index.where(FACTS_AGE, { target });
    if (ages.length === 0) return candidate;
    const note = ages
      .map((age) => `${age.labels.collector} failing, facts from its last good run ${formatSeconds(age.value)} ago`)
      .join('; ');
    return {
      ...candidate,
      description: `${candidate.description} (Stale: ${note}.)`,
      annotations: { ...candidate.annotations, stale_facts: note },
    };
  });
}
