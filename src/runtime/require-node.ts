/**
 * Imported first by the CLI, before any module that needs a newer Node.js: on an older one avaxmon
 * refuses to start with the reason, instead of failing later in a dependency with a cryptic error.
 */
export const MIN_NODE_MAJOR = 22;

export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return `avaxmon needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version} (${process.execPath}). Install Node.js ${MIN_NODE_MAJOR} or 24, or point the service at it.`;
}

const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
