import type { SampleIndex } from './sample-index.js';

/**
 * True while a collector of the target fails. Its series are then gone, so the alerts that read them
 * know nothing: they keep their last state rather than resolve on missing data.
 */
export function collectorFailing(index: SampleIndex, target: string | undefined): boolean {
  return (
    target !== undefined && index.all('avaxmon_collector_success').some((sample) => sample.labels.target === target && sample.value === 0)
  );
}
