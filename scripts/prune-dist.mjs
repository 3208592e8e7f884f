// prepack: removes from dist/ the compiled files whose source in src/ is gone, so the package ships
// no stale module, without deleting dist/ itself: a daemon running from this checkout keeps the
// modules it loads lazily (a reload, the web-config watcher) while `npm pack` rebuilds.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const kept = new Set(['revision.txt']);

if (existsSync(dist)) {
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dist, join(entry.parentPath, entry.name));
    if (kept.has(path)) continue;
    const source = join(root, 'src', path.replace(/\.js$/, '.ts'));
    if (!path.endsWith('.js') || !existsSync(source)) rmSync(join(dist, path));
  }
}
