import { describe, expect, it } from 'vitest';
import { ScrapeCadence } from '../../src/metrics/scrape-cadence.js';

const cadenceOf = (scrapesMs: readonly number[]) => {
  const cadence = new ScrapeCadence();
  for (const ms of scrapesMs) cadence.scraped(ms);
  return cadence;
};

describe('ScrapeCadence', () => {
  it('expects nothing before two scrapes, then the last plus the interval', () => {
    expect(cadenceOf([]).nextMs()).toBeUndefined();
    expect(cadenceOf([5_000]).nextMs()).toBeUndefined();
    expect(cadenceOf([5_000, 20_000, 35_020]).nextMs()).toBe(50_020);
  });

  it('takes scrapers that came at once as one scrape, the first setting the phase', () => {
    expect(cadenceOf([0, 15_000, 15_010, 30_000, 30_005]).nextMs()).toBe(45_000);
  });

  it('expects the sooner of two replicas at different phases', () => {
    // Two Prometheus replicas every 15 s, 4 s apart: the next is 4 s or 11 s after the last.
    expect(cadenceOf([0, 4_000, 15_000, 19_000]).nextMs()).toBe(23_000);
    expect(cadenceOf([0, 4_000, 15_000, 19_000, 30_000]).nextMs()).toBe(34_000);
  });

  it('forgets a cadence after a long gap or a step of the clock back', () => {
    expect(cadenceOf([0, 15_000, 30_000, 30_000 + 11 * 60_000]).nextMs()).toBeUndefined();
    expect(cadenceOf([0, 15_000, 30_000, 10_000]).nextMs()).toBeUndefined();
  });
});
