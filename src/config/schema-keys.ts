import type { z } from 'zod';

/** The parts of zod 4's schema definitions that lead to an object's keys. */
interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly valueType?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The keys the schema allows for the object at `path` of a config (list indexes and record keys
 * included), for suggesting the one a misspelt key meant. Empty when the path leads to no object.
 */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  collect(schema, path, keys);
  return [...keys];
}

function collect(schema: z.ZodType | undefined, path: readonly PropertyKey[], keys: Set<string>): void {
  if (!schema) return;
  const def = defOf(schema);
  if (def.type === 'union' || def.type === 'intersection') {
    for (const option of def.options ?? []) collect(option, path, keys);
    return;
  }
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner) {
    collect(inner, path, keys);
    return;
  }
  if (def.type === 'object' && def.shape) {
    if (path.length === 0) for (const key of Object.keys(def.shape)) keys.add(key);
    else collect(def.shape[String(path[0])], path.slice(1), keys);
    return;
  }
  if (path.length === 0) return;
  if (def.type === 'array') collect(def.element, path.slice(1), keys);
  else if (def.type === 'record') collect(def.valueType, path.slice(1), keys);
}
