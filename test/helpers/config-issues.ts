import { parseConfig } from '../../src/config/load.js';
import { ConfigError, formatConfigIssue } from '../../src/errors.js';

/** The config issues a YAML text produces, one formatted line each; [] when it is valid. */
export function issuesOf(yaml: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseConfig(yaml, { env });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(formatConfigIssue);
    throw error;
  }
  return [];
}
