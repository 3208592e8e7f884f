import { readFileSync } from 'node:fs';
import type { ConfigIssue } from '../errors.js';
import { registerHeaderSecret, registerSecret, registerUrlCredentials } from './redact.js';
import { headerValueProblem } from './fields.js';

/** The part of a parsed config holding header and URL secrets (structural, so schema.ts is not imported back). */
interface TargetsWithSecrets {
  readonly targets: ReadonlyArray<{
    readonly url: string;
    readonly subnets: ReadonlyArray<{ readonly rpc_url?: string }>;
    readonly header_files: Readonly<Record<string, string>>;
    readonly headers: Record<string, string>;
  }>;
}

/** Reads `header_files` into headers, and registers every header value and URL credential as a secret for redaction. */
export function resolveSecretFiles(config: TargetsWithSecrets): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.targets.forEach((target, index) => {
    for (const [header, file] of Object.entries(target.header_files)) {
      const path = `targets[${index}].header_files.${header}`;
      const value = readSecretFile(file, path, issues);
      const problem = value === undefined ? undefined : headerValueProblem(value);
      if (problem) issues.push({ path, message: `the file's content ${problem}` });
      else if (value !== undefined) target.headers[header] = value;
    }
    Object.values(target.headers).forEach(registerHeaderSecret);
    // A hosted node's key often rides in the URL (`?api_key=`, `https://user:key@...`).
    for (const url of [target.url, ...target.subnets.map((subnet) => subnet.rpc_url)]) if (url !== undefined) registerUrlCredentials(url);
  });
  return issues;
}

/** Reads a secret from a file, trimming the trailing newline that editors and `echo` add. */
export function readSecretFile(file: string, path: string, issues: ConfigIssue[]): string | undefined {
  try {
    const value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    if (value === '') issues.push({ path, message: `secret file ${file} is empty` });
    registerSecret(value);
    return value;
  } catch (error) {
    issues.push({ path, message: `cannot read secret file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}` });
    return undefined;
  }
}
