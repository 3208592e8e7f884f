import { readFileSync } from 'node:fs';
import { LineCounter, isAlias, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { configSchema, type Config } from './schema.js';
import { keysAt } from './schema-keys.js';
import { closest } from './did-you-mean.js';
import { expandEnv, joinPath } from './expand-env.js';
import { resolveSecretFiles } from './secret-files.js';
import { invocation } from '../runtime/invocation.js';
import { nothingToWatch } from './nothing-to-watch.js';

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** The daemon needs something to collect; `test-alert` only needs the receivers. */
  requireSomethingToWatch?: boolean;
}

/** The path shown for a problem with the document as a whole. */
export const ROOT = '(root)';

/** Reads, expands and validates a config file. Throws ConfigError listing every bad path. */
export function loadConfigFile(file: string, options: LoadOptions = {}): Config {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    // A first run from an empty directory: say where a config comes from.
    const hint = missing ? `; write a starter one with \`${invocation()} init ${file}\`, or pass --config.file=FILE` : '';
    throw new ConfigError([{ path: '', message: `cannot read config file ${file}: ${(error as Error).message}${hint}` }]);
  }
  const config = parseConfig(decodeText(bytes), options);
  if (options.requireSomethingToWatch ?? true) {
    const issue = nothingToWatch(config, bytes.toString('utf8').trim() === '');
    if (issue) throw new ConfigError([issue]);
  }
  return config;
}

/** A config is UTF-8 text; anything else is named as such instead of being read as odd YAML. */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = bytes.toString('utf8');
    throw new ConfigError([{ path: ROOT, message: `not a UTF-8 text file (invalid byte at ${position(text, text.indexOf('\uFFFD'))})` }]);
  }
}

export function parseConfig(text: string, options: LoadOptions = {}): Config {
  const document = parseYaml(text);
  const issues: ConfigIssue[] = [];
  const expanded = expandEnv(toPlainData(document) ?? {}, options.env ?? process.env, '', issues);
  if (expanded === null || typeof expanded !== 'object' || Array.isArray(expanded)) {
    throw new ConfigError([{ path: ROOT, message: `expected a mapping, got ${describe(expanded)}` }]);
  }
  const result = configSchema.safeParse(expanded);
  // An unset variable already explains why its value is invalid; report that path once.
  const envPaths = new Set(issues.map((issue) => issue.path));
  if (!result.success)
    issues.push(...withoutExplainedMissing(result.error.issues.flatMap(toConfigIssues)).filter((issue) => !envPaths.has(issue.path)));
  if (issues.length > 0) throw new ConfigError(issues);
  const config = result.data as Config;
  issues.push(...resolveSecretFiles(config));
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}

/** Parses YAML, reporting every syntax error on one line with its position. */
function parseYaml(text: string): Document {
  const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new ConfigError([{ path: ROOT, message: `not a text file (control character U+${code} at ${position(text, control.index)})` }]);
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { prettyErrors: false, lineCounter, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      document.errors.map((error) => ({ path: ROOT, message: `YAML error at ${linePos(lineCounter, error.pos[0])}: ${error.message}` })),
    );
  }
  (document as DocumentWithLines).lineCounter = lineCounter;
  return document;
}

type DocumentWithLines = Document & { lineCounter?: LineCounter };

/**
 * Resolves aliases into plain data. The yaml library refuses documents whose aliases would expand
 * excessively (a "billion laughs" bomb) or point nowhere; say so with the first alias's position.
 */
function toPlainData(document: DocumentWithLines): unknown {
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    let where = '';
    visit(document, {
      Alias(_, node) {
        if (node.range && isAlias(node)) where = ` (first alias at ${linePos(document.lineCounter!, node.range[0])})`;
        return visit.BREAK;
      },
    });
    throw new ConfigError([{ path: ROOT, message: `YAML error: ${(error as Error).message}${where}` }]);
  }
}

function linePos(lineCounter: LineCounter, offset: number): string {
  const { line, col } = lineCounter.linePos(offset);
  return `line ${line}, column ${col}`;
}

function position(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

const SUGGESTION = /^unknown key; did you mean (.+)\?$/;

/** A misspelt key (`ulr`) also leaves the key it meant missing; its "did you mean url?" says both. */
function withoutExplainedMissing(issues: ConfigIssue[]): ConfigIssue[] {
  const meant = new Set(
    issues.flatMap((issue) => {
      const match = SUGGESTION.exec(issue.message);
      return match ? [joinPath(issue.path.slice(0, issue.path.lastIndexOf('.') + 1).replace(/\.$/, ''), match[1])] : [];
    }),
  );
  return issues.filter((issue) => !(meant.has(issue.path) && issue.message.includes('received undefined')));
}

function toConfigIssues(issue: z.core.$ZodIssue): ConfigIssue[] {
  const path = issue.path.reduce<string>((text, key) => joinPath(text, key as string | number), '') || ROOT;
  // One line per unknown key, each with its own path, rather than "Unrecognized keys" at the parent.
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(configSchema, issue.path);
    return issue.keys.map((key) => {
      const meant = closest(key, known);
      return { path: joinPath(path === ROOT ? '' : path, key), message: meant ? `unknown key; did you mean ${meant}?` : 'unknown key' };
    });
  }
  // A bad record key (e.g. a collector name): the key's own issue says what is wrong.
  if (issue.code === 'invalid_key') return issue.issues.map((inner) => ({ path, message: inner.message }));
  return [{ path, message: issue.message }];
}
