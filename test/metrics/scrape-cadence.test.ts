import { describe, expect, it } from 'vitest';
import { ScrapeCadence } from '../../src/metrics/scrape-cadence.js';

const cadenceOf = (scrapesMs: readonly number[]) => {
  const cadence = new ScrapeCadence();
  for (const ms of scrapesMs) cadence.scraped(ms);
  return cadence;
};

describe('ScrapeCadence', () => {
  it('expects nothing before the same interval came twice, then the last scrape plus it', () => {
    expect(cadenceOf([]).nextMs()).toBeUndefined();
    expect(cadenceOf([5_000]).nextMs()).toBeUndefined();
    expect(cadenceOf([5_000, 20_000]).nextMs()).toBeUndefined();
    expect(cadenceOf([5_000, 20_000, 35_300]).nextMs()).toBe(50_600);
  });

  it('trusts no cadence across an odd interval, such as a one-off scrape a second before', () => {
    expect(cadenceOf([0, 1_000, 16_300]).nextMs()).toBeUndefined();
    expect(cadenceOf([0, 1_000, 16_300, 31_600]).nextMs()).toBe(46_900);
  });

  it('tells a scrape that came again from a one-off', () => {
    expect(cadenceOf([0]).repeated()).toBe(false);
    expect(cadenceOf([0, 500]).repeated()).toBe(false);
    expect(cadenceOf([0, 60_000]).repeated()).toBe(true);
  });

  it('takes scrapers that came at once as one scrape, the first setting the phase', () => {
    expect(cadenceOf([0, 15_000, 15_010, 30_000, 30_005]).nextMs()).toBe(45_000);
  });

  it('expects the next of two replicas at different phases', () => {
    // Two Prometheus replicas every 15 s, 4 s apart: the intervals alternate 4 s and 11 s.
    expect(cadenceOf([0, 4_000, 15_000, 19_000, 30_000]).nextMs()).toBe(34_000);
    expect(cadenceOf([0, 4_000, 15_000, 19_000, 30_000, 34_000]).nextMs()).toBe(45_000);
  });

  it('forgets a cadence after a long gap or a step of the clock back', () => {
    expect(cadenceOf([0, 15_000, 30_000, 30_000 + 11 * 60_000]).nextMs()).toBeUndefined();
    expect(cadenceOf([0, 15_000, 30_000, 10_000]).nextMs()).toBeUndefined();
  });
});
