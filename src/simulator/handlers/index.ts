import { avmMethods } from './avm.js';
import { evmMethods } from './evm.js';
import { healthMethods } from './health.js';
import { infoMethods } from './info.js';
import { l1ValidatorMethods } from './l1-validators.js';
import { platformMethods } from './platform.js';
import type { MethodHandler } from './types.js';
import { validatorSetMethods } from './validator-sets.js';

/** Every JSON-RPC method the simulator answers, by name; the path decides the error dialect. */
export const methodHandlers: Record<string, MethodHandler> = {
  ...healthMethods,
  ...infoMethods,
  ...platformMethods,
  ...avmMethods,
  ...evmMethods,
  ...l1ValidatorMethods,
  ...validatorSetMethods,
};
