import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { configSchema, type Config } from './schema.js';
import { expandEnv, joinPath } from './expand-env.js';
import { resolveSecretFiles } from './secret-files.js';

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
}

/** Reads, expands and validates a config file. Throws ConfigError listing every bad path. */
export function loadConfigFile(file: string, options: LoadOptions = {}): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ path: '', message: `cannot read config file ${file}: ${(error as Error).message}` }]);
  }
  return parseConfig(text, options);
}

export function parseConfig(text: string, options: LoadOptions = {}): Config {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) {
    throw new ConfigError(document.errors.map((error) => ({ path: '', message: `YAML: ${error.message}` })));
  }
  const issues: ConfigIssue[] = [];
  const expanded = expandEnv(document.toJS() ?? {}, options.env ?? process.env, '', issues);
  const result = configSchema.safeParse(expanded);
  // An unset variable already explains why its value is invalid; report that path once.
  const envPaths = new Set(issues.map((issue) => issue.path));
  if (!result.success) issues.push(...result.error.issues.flatMap(toConfigIssues).filter((issue) => !envPaths.has(issue.path)));
  if (issues.length > 0) throw new ConfigError(issues);
  const config = result.data as Config;
  issues.push(...resolveSecretFiles(config));
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}

function toConfigIssues(issue: z.core.$ZodIssue): ConfigIssue[] {
  const path = issue.path.reduce<string>((text, key) => joinPath(text, key as string | number), '');
  // One line per unknown key, each with its own path, rather than "Unrecognized keys" at the parent.
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: joinPath(path, key), message: 'unknown key' }));
  // A bad record key (e.g. a collector name): the key's own issue says what is wrong.
  if (issue.code === 'invalid_key') return issue.issues.map((inner) => ({ path, message: inner.message }));
  return [{ path, message: issue.message }];
}
