import { chainHeight, chainWorld, findChain } from '../chain-world.js';
import type { MethodHandler } from './types.js';

/** avm.* on /ext/bc/X: heights and fees as decimal strings. */
export const avmMethods: Record<string, MethodHandler> = {
  'avm.getHeight': (_, state, now) => ({ height: String(chainHeight(findChain(chainWorld(state), 'X')!, now)) }),
  'avm.getTxFee': () => ({ txFee: '1000000', createAssetTxFee: '10000000' }),
};
