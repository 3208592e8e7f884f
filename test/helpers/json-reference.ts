import type { Projection } from '../../src/clients/json-projection.js';

/** What JSON.parse gives, with only the projected parts: the reference the reader must match. */
export function reference(value: unknown, projection: Projection): unknown {
  if (projection === true) return value;
  if (Array.isArray(projection)) return Array.isArray(value) ? value.map((item) => reference(item, projection[0])) : value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const shape = projection as Record<string, Projection>;
  if (Object.keys(shape).length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const kept = Object.hasOwn(shape, key) && key !== '*' ? shape[key] : shape['*'];
    if (kept !== undefined)
      Object.defineProperty(out, key, { value: reference(item, kept), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
