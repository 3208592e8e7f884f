import { describe, expect, it } from 'vitest';
import { balanceRunwaySeconds } from '../../src/collectors/validators/runway.js';

describe('L1 balance runway = balance (nAVAX) / price (nAVAX per second)', () => {
  it('1.33 AVAX at the mainnet minimum price of 512 nAVAX/s lasts about a month', () => {
    // 1,330,000,000 nAVAX / 512 nAVAX/s = 2,597,656.25 s ≈ 30.07 days
    expect(balanceRunwaySeconds(1_330_000_000, 512)).toBe(2_597_656.25);
  });

  it('the research notes example: 8,780,477,952 nAVAX at 512 nAVAX/s', () => {
    // 8,780,477,952 / 512 = 17,149,371 s exactly (≈ 198.5 days)
    expect(balanceRunwaySeconds(8_780_477_952, 512)).toBe(17_149_371);
  });

  it('shrinks as the price rises above the minimum', () => {
    // A day above target doubles the price: 1,024 nAVAX/s halves the runway to 1,298,828.125 s
    expect(balanceRunwaySeconds(1_330_000_000, 1024)).toBe(1_298_828.125);
  });

  it('is zero for an inactive validator and undefined without a price', () => {
    expect(balanceRunwaySeconds(0, 512)).toBe(0);
    expect(balanceRunwaySeconds(1_000, 0)).toBeUndefined();
  });
});
