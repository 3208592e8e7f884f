import { accessSync, constants, mkdirSync } from 'node:fs';
import { ConfigError, type ConfigIssue } from '../errors.js';

/**
 * The alert state directory must exist and be writable before the daemon starts: the schema cannot
 * see the filesystem, and finding out at the first notification would lose it.
 */
function stateDirIssues(stateDir: string | undefined): ConfigIssue[] {
  if (stateDir === undefined) return [];
  try {
    mkdirSync(stateDir, { recursive: true });
    accessSync(stateDir, constants.W_OK);
    return [];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return [{ path: 'alerts.state_dir', message: `cannot use ${stateDir} as a writable directory: ${code}` }];
  }
}

export function assertStateDirUsable(stateDir: string | undefined): void {
  const issues = stateDirIssues(stateDir);
  if (issues.length > 0) throw new ConfigError(issues);
}
