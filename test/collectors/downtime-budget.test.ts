import { describe, expect, it } from 'vitest';
import { downtimeBudgetSeconds } from '../../src/collectors/validators/downtime-budget.js';

const DAY = 86_400;

describe('downtime budget = (1 − req)·(end − start) − (1 − uptime)·(now − start)', () => {
  it('a fresh 14-day period with perfect uptime has the whole allowance', () => {
    // (1 − 0.8)·14 d − (1 − 1)·0 = 0.2 · 1,209,600 = 241,920 s (2.8 days)
    expect(downtimeBudgetSeconds({ requirement: 0.8, uptimeRatio: 1, startSeconds: 0, endSeconds: 14 * DAY, nowSeconds: 0 })).toBeCloseTo(
      241_920,
      6,
    );
  });

  it('halfway through a year at 95% uptime', () => {
    // allowance 0.2 · 365 d = 6,307,200 s; spent 0.05 · 182.5 d = 0.05 · 15,768,000 = 788,400 s
    // budget 6,307,200 − 788,400 = 5,518,800 s (about 63.9 days)
    expect(
      downtimeBudgetSeconds({
        requirement: 0.8,
        uptimeRatio: 0.95,
        startSeconds: 1_000,
        endSeconds: 1_000 + 365 * DAY,
        nowSeconds: 1_000 + 182.5 * DAY,
      }),
    ).toBeCloseTo(5_518_800, 6);
  });

  it('goes negative once the reward is lost', () => {
    // 30-day period, 20 days in, 60% uptime: allowance 0.2 · 30 d = 518,400 s; spent 0.4 · 20 d = 691,200 s
    // budget 518,400 − 691,200 = −172,800 s (two days beyond saving)
    expect(
      downtimeBudgetSeconds({ requirement: 0.8, uptimeRatio: 0.6, startSeconds: 0, endSeconds: 30 * DAY, nowSeconds: 20 * DAY }),
    ).toBeCloseTo(-172_800, 6);
  });

  it('is exactly zero at the edge', () => {
    // 10 days in a 50-day period at 0% uptime: allowance 0.2 · 50 d = 10 d; spent 1 · 10 d = 10 d
    expect(
      downtimeBudgetSeconds({ requirement: 0.8, uptimeRatio: 0, startSeconds: 0, endSeconds: 50 * DAY, nowSeconds: 10 * DAY }),
    ).toBeCloseTo(0, 6);
  });

  it('honours ACP-267: 90% for validations that start from Helicon on', () => {
    // 0.1 · 90 d = 777,600 s; spent 0.02 · 30 d = 51,840 s; budget 725,760 s
    expect(
      downtimeBudgetSeconds({ requirement: 0.9, uptimeRatio: 0.98, startSeconds: 0, endSeconds: 90 * DAY, nowSeconds: 30 * DAY }),
    ).toBeCloseTo(725_760, 6);
  });

  it('clamps now to the staking period', () => {
    // After the end, the spent downtime stops growing: 0.2 · 10 d − 0.1 · 10 d = 86,400 s
    expect(
      downtimeBudgetSeconds({ requirement: 0.8, uptimeRatio: 0.9, startSeconds: 0, endSeconds: 10 * DAY, nowSeconds: 20 * DAY }),
    ).toBeCloseTo(86_400, 6);
    // Before the start nothing has been spent: the whole allowance, 0.2 · 10 d = 172,800 s
    expect(
      downtimeBudgetSeconds({ requirement: 0.8, uptimeRatio: 0.5, startSeconds: 100, endSeconds: 100 + 10 * DAY, nowSeconds: 0 }),
    ).toBeCloseTo(172_800, 6);
  });
});
