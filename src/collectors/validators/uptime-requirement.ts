/** The requirement of every primary network validation before Helicon (Mainnet and Fuji). */
export const BASE_UPTIME_REQUIREMENT = 0.8;
/** ACP-267: validations, or auto-renew cycles, that start at or after the network's Helicon time. */
export const HELICON_UPTIME_REQUIREMENT = 0.9;

/**
 * The uptime a validation needs for its reward, as AvalancheGo v1.15 decides its reward vote
 * (vms/platformvm/block/executor/options.go): 0.9 when the validation, or for an auto-renewed
 * validator the current cycle, starts at or after `heliconTime`, else 0.8. `heliconSeconds` is
 * undefined on a node that predates Helicon. A configured override replaces the rule (custom networks).
 */
export function uptimeRequirement(startSeconds: number, heliconSeconds: number | undefined, override: number | undefined): number {
  if (override !== undefined) return override;
  return heliconSeconds !== undefined && startSeconds >= heliconSeconds ? HELICON_UPTIME_REQUIREMENT : BASE_UPTIME_REQUIREMENT;
}
