import { healthMethods } from './health.js';
import { infoMethods } from './info.js';
import type { MethodHandler } from './types.js';

/** Every JSON-RPC method the simulator answers, by name; the path decides the error dialect. */
export const methodHandlers: Record<string, MethodHandler> = {
  ...healthMethods,
  ...infoMethods,
};
