/** FNV-1a of a string as an unsigned 32-bit integer: stable across processes and restarts. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash >>> 0;
}
