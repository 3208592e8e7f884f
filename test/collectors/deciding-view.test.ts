import { describe, expect, it } from 'vitest';
import {
  DECIDING_STAKE_SHARE,
  observedUptimeRatio,
  uptimeSeenByShare,
  uptimeSeenByStakePerPercent,
} from '../../src/collectors/validators/deciding-view.js';
import { downtimeBudgetSeconds } from '../../src/collectors/validators/downtime-budget.js';

const DAY = 86_400;

describe('the deciding view: the uptime at least 75% of the connected stake sees', () => {
  it("is alpha/k = 15/20 of Mainnet's polls", () => {
    expect(DECIDING_STAKE_SHARE).toBe(0.75);
  });

  it('follows the majority, not the average (issue 23 case 6)', () => {
    // 60% of the stake sees 80%, 40% sees 100%: the average is 88%, but 75% of the stake sees only 80%.
    const views = [
      { uptimeRatio: 0.8, weight: 60 },
      { uptimeRatio: 1, weight: 40 },
    ];
    expect(uptimeSeenByShare(views, DECIDING_STAKE_SHARE)).toBe(0.8);
    // A one-year validation, 100 days in, 0.9 required: (1 − 0.9)·365 d − (1 − u)·100 d
    const budget = (uptime: number) =>
      downtimeBudgetSeconds({ requirement: 0.9, uptimeRatio: uptime, startSeconds: 0, endSeconds: 365 * DAY, nowSeconds: 100 * DAY });
    expect(budget(0.8) / DAY).toBeCloseTo(16.5, 9); // 36.5 − 20
    expect(budget(0.88) / DAY).toBeCloseTo(24.5, 9); // 36.5 − 12: the average overstates it by 8 days
  });

  it('leaves disconnected stake out rather than counting it as 0% (issue 23 case 5)', () => {
    // 85% of the stake connected, every connected validator sending "99" (truly 99.5%).
    const connected = [{ uptimeRatio: observedUptimeRatio(99), weight: 85 }];
    expect(uptimeSeenByShare(connected, DECIDING_STAKE_SHARE)).toBeCloseTo(0.995, 12);
    // A 14-day cycle at 0.9, 13 days in: (1 − 0.9)·14 d − (1 − 0.995)·13 d = 120,960 − 5,616 = 115,344 s (32.0 h)
    expect(
      downtimeBudgetSeconds({ requirement: 0.9, uptimeRatio: 0.995, startSeconds: 0, endSeconds: 14 * DAY, nowSeconds: 13 * DAY }) / 3600,
    ).toBeCloseTo(32.04, 2);
    // info.uptime's average: (0.85·99 + own 100·~0) ≈ 84.15%: 120,960 − 0.1585·13 d = −57,067 s, "reward lost".
    expect(
      downtimeBudgetSeconds({ requirement: 0.9, uptimeRatio: 0.8415, startSeconds: 0, endSeconds: 14 * DAY, nowSeconds: 13 * DAY }),
    ).toBeLessThan(0);
  });

  it('takes the highest uptime that the share still sees at or above, whatever the order given', () => {
    const views = [
      { uptimeRatio: 0.95, weight: 10 },
      { uptimeRatio: 1, weight: 70 },
      { uptimeRatio: 0.5, weight: 20 },
    ];
    // ≥ 1.0: 70%, short of 75%; ≥ 0.95: 80%.
    expect(uptimeSeenByShare(views, 0.75)).toBe(0.95);
    // Exactly 75% at or above counts.
    expect(
      uptimeSeenByShare(
        [
          { uptimeRatio: 1, weight: 75 },
          { uptimeRatio: 0, weight: 25 },
        ],
        0.75,
      ),
    ).toBe(1);
    expect(uptimeSeenByShare([], 0.75)).toBeUndefined();
    expect(uptimeSeenByShare([{ uptimeRatio: 1, weight: 0 }], 0.75)).toBeUndefined();
  });

  it('reads a truncated whole percent as the middle of its interval, 100 as 100', () => {
    expect(observedUptimeRatio(99)).toBeCloseTo(0.995, 12);
    expect(observedUptimeRatio(89)).toBeLessThan(0.9); // [89, 90): below a 90% requirement, as the peer's exact view is
    expect(observedUptimeRatio(90)).toBeGreaterThanOrEqual(0.9);
    expect(observedUptimeRatio(100)).toBe(1);
    expect(observedUptimeRatio(0)).toBe(0.005);
  });

  it('gives, for Mainnet-sized sets of whole-percent views, what walking every view from the highest gives', () => {
    // The rule stated plainly: each view from the highest down, until the share is reached.
    const byWalk = (views: ReadonlyArray<{ uptimeRatio: number; weight: number }>, share: number) => {
      const total = views.reduce((sum, view) => sum + view.weight, 0);
      let seen = 0;
      for (const view of [...views].sort((a, b) => b.uptimeRatio - a.uptimeRatio)) {
        seen += view.weight;
        if (seen >= share * total) return view.uptimeRatio;
      }
      return undefined;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let round = 0; round < 50; round++) {
      const views = Array.from({ length: 1500 }, () => ({
        uptimeRatio: observedUptimeRatio(Math.floor(70 + random() * 31)),
        weight: Math.floor(2_000 + random() * 3_000_000),
      }));
      for (const share of [0.1, 0.5, DECIDING_STAKE_SHARE]) expect(uptimeSeenByShare(views, share)).toBe(byWalk(views, share));
    }
  });

  it("from info.peers: each validator peer's whole-percent view weighted by its stake, summed per percent first", () => {
    const peers = Array.from({ length: 1_800 }, (_, index) => ({
      observedPercent: index % 7 === 0 ? undefined : 60 + ((index * 37) % 41),
      weight: 2_000_000_000_000 + index * 1_000_003,
    }));
    const perPeer = peers
      .filter(({ observedPercent }) => observedPercent !== undefined)
      .map(({ observedPercent, weight }) => ({ uptimeRatio: observedUptimeRatio(observedPercent!), weight }));
    const stakeByPercent = new Map<number, number>();
    for (const { observedPercent, weight } of peers)
      if (observedPercent !== undefined) stakeByPercent.set(observedPercent, (stakeByPercent.get(observedPercent) ?? 0) + weight);
    expect(stakeByPercent.size).toBeLessThanOrEqual(41);
    expect(uptimeSeenByStakePerPercent(stakeByPercent)).toBe(uptimeSeenByShare(perPeer, DECIDING_STAKE_SHARE));
    // No validator's view: no view at all, never a reassuring one.
    expect(uptimeSeenByStakePerPercent(new Map())).toBeUndefined();
  });
});
