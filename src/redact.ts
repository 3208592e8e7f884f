/**
 * Every secret the config holds (header values, API keys, webhook URLs, tokens). Logs and the status
 * page scrub these strings wherever they appear, so a secret leaks through neither a field we forgot
 * to redact nor an upstream error message that echoes it.
 */
const secrets = new Set<string>();
const MIN_SECRET_LENGTH = 4;
export const REDACTED = '<redacted>';

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

export function scrubSecrets(text: string): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  return result;
}

export function scrubDeep<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) return value.map(scrubDeep) as T;
  if (value instanceof Error) return scrubError(value) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item)])) as T;
  }
  return value;
}

/** Strips user:password from a URL before it is shown anywhere. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return scrubSecrets(parsed.toString());
  } catch {
    return REDACTED;
  }
}

function scrubError(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? scrubError(error.cause) : undefined;
  return { type: error.name, message: scrubSecrets(error.message), code, cause };
}
