/**
 * Seconds until an L1 validator's balance runs out, at the current continuous fee:
 *
 *   runway = balance_nAVAX / price_nAVAX_per_second
 *
 * `price` is platform.getValidatorFeeState's price: one P-Chain-wide rate that every active L1
 * validator pays per second, whatever its weight or L1 (ACP-77). AvalancheGo moves the price with
 * the number of active L1 validators (minPrice·e^(excess/K)); the API does not expose that count,
 * so the runway assumes today's price holds. Above the target count the price rises and the real
 * runway is shorter. Undefined when the price is not positive (no rate to divide by).
 */
export function balanceRunwaySeconds(balanceNavax: number, priceNavaxPerSecond: number): number | undefined {
  if (!(priceNavaxPerSecond > 0)) return undefined;
  return balanceNavax / priceNavaxPerSecond;
}
