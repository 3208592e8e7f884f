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

/** Replaces every secret in a text, also in its JSON-escaped form (as it appears in a log line). */
export function scrubSecrets(text: string): string {
  let result = text;
  for (const secret of secrets) {
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
      if (result.includes(form)) result = result.split(form).join(REDACTED);
    }
  }
  return result;
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
