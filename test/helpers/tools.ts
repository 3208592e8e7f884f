import { existsSync } from 'node:fs';

/**
 * Whether a Debian tool is there. Missing on a developer's machine, its tests skip and say why;
 * missing under CI=true, they fail, because CI installs it.
 */
export function requireTool(path: string, debianPackage: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI === 'true') throw new Error(`${path} is missing under CI: .ci/run must install ${debianPackage}`);
  console.warn(`skipping: ${path} not found (apt-get install ${debianPackage})`);
  return false;
}
