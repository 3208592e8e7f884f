import type { ConfigIssue } from '../errors.js';

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${VAR}` in every string of a parsed YAML document. Expanding after parsing (not in the
 * raw text) means a variable's value can never change the document's structure.
 */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, path: string, issues: ConfigIssue[]): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_, name: string) => {
      const replacement = env[name];
      if (replacement === undefined) issues.push({ path, message: `environment variable ${name} is not set` });
      return replacement ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => expandEnv(item, env, `${path}[${index}]`, issues));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandEnv(item, env, joinPath(path, key), issues)]));
  }
  return value;
}

export function joinPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const segment = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return parent ? `${parent}.${segment}` : segment;
}
