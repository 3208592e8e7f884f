import { ArrayColumns, ColumnsProjection, type Projection } from '../../src/clients/json-projection.js';

/** What JSON.parse gives, with only the projected parts: the reference the reader must match. */
export function reference(value: unknown, projection: Projection): unknown {
  if (projection === true) return value;
  if (projection instanceof ColumnsProjection) return Array.isArray(value) ? columnsReference(value, projection.fields) : value;
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

/** An array read as columns, in the plain form plainColumns gives ArrayColumns. */
function columnsReference(elements: unknown[], fields: readonly string[]) {
  const isObject = (element: unknown): element is Record<string, unknown> =>
    element !== null && typeof element === 'object' && !Array.isArray(element);
  const misfit = elements.findIndex((element) => !isObject(element));
  return {
    length: elements.length,
    misfit: misfit < 0 ? undefined : { index: misfit, value: elements[misfit] },
    columns: Object.fromEntries(
      fields.map((field) => [
        field,
        elements.map((element) => (isObject(element) && Object.hasOwn(element, field) ? element[field] : undefined)),
      ]),
    ),
  };
}

/** A read value with each ArrayColumns in it as a plain object, to compare with reference(). */
export function plainColumns(value: unknown): unknown {
  if (value instanceof ArrayColumns)
    return {
      length: value.length,
      misfit: value.misfit,
      columns: Object.fromEntries(value.fields.map((field) => [field, Array.from(value.column(field))])),
    };
  if (Array.isArray(value)) return value.map(plainColumns);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: plainColumns(item), enumerable: true, writable: true, configurable: true });
  return out;
}
