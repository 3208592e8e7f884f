/**
 * The `alerts:` section of a stack whose one alert is AvalancheNodeUnhealthy, firing at once and sent
 * to a webhook at `hookUrl`: what the silence and `/api/v2` tests silence, list and query.
 */
export function nodeUnhealthyAlertsYaml(stateDir: string, hookUrl: string): string {
  return `alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalancheSubnetUnhealthy: { enabled: false }
  receivers:
    - { name: hook, type: webhook, url: ${hookUrl}/hook }
`;
}
