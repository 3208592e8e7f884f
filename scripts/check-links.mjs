// `npm test`'s link check: every local link in README.md and docs/*.md names a file that exists, and
// every #anchor names a heading (or an explicit <a id>) of the Markdown file it points into, with
// GitHub's heading slugs. Links to other sites are not fetched: CI has no network but the registries.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => `docs/${entry.name}`),
];

/** The text outside fenced code blocks and inline code, line by line (line numbers kept). */
function proseLines(text) {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/(`+)(?:(?!\1).)*?\1/g, '');
  });
}

/** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*`]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const explicit of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

const problems = [];
let checked = 0;
for (const document of documents) {
  const file = join(root, document);
  const lines = proseLines(readFileSync(file, 'utf8'));
  lines.forEach((line, index) => {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
      ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)].map((match) => match[1]),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2);
      const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const where = `${document}:${index + 1}`;
      checked += 1;
      if (!existsSync(path)) {
        problems.push(`${where}: ${target}: no such file ${relative(root, path)}`);
        continue;
      }
      if (anchor === undefined || !path.endsWith('.md') || statSync(path).isDirectory()) continue;
      if (!anchorsOf(path).has(decodeURIComponent(anchor)))
        problems.push(`${where}: ${target}: ${relative(root, path)} has no heading #${anchor}`);
    }
  });
}

if (problems.length > 0) {
  console.error(`Broken links in README.md and docs/ (${problems.length}):\n${problems.join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(`Links: ${checked} local links in ${documents.length} documents, each file and anchor found.`);
}
