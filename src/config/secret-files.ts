import { readFileSync } from 'node:fs';
import type { ConfigIssue } from '../errors.js';
import { registerSecret } from '../redact.js';

/** The part of a parsed config holding header secrets (structural, so schema.ts is not imported back). */
interface TargetsWithHeaders {
  readonly targets: ReadonlyArray<{ readonly header_files: Readonly<Record<string, string>>; readonly headers: Record<string, string> }>;
}

/** Reads `header_files` into headers, and registers every header value as a secret for redaction. */
export function resolveSecretFiles(config: TargetsWithHeaders): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.targets.forEach((target, index) => {
    for (const [header, file] of Object.entries(target.header_files)) {
      const value = readSecretFile(file, `targets[${index}].header_files.${header}`, issues);
      if (value !== undefined) target.headers[header] = value;
    }
    Object.values(target.headers).forEach(registerSecret);
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
