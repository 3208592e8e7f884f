import { chainWorld, l1Balance } from '../chain-world.js';
import { RpcFailure, type MethodHandler } from './types.js';

/**
 * subnet-evm's validators.getCurrentValidators on /ext/bc/<blockchainID>/validators. Unlike the
 * P-Chain, every number here is a plain JSON number and uptimePercentage is a float 0..100.
 */
export const l1ValidatorMethods: Record<string, MethodHandler> = {
  'validators.getCurrentValidators': (params, state, now) => {
    const world = chainWorld(state);
    const blockchainId = /^\/ext\/bc\/([^/]+)\/validators$/.exec(String(params.path ?? ''))?.[1];
    const subnet = world.subnets.find((candidate) => candidate.blockchainId === blockchainId && candidate.l1Validators.length > 0);
    if (!subnet) throw new RpcFailure('rpc: can\'t find service "validators.GetCurrentValidators"');
    const nodeIds = Array.isArray(params.nodeIDs) ? params.nodeIDs.map(String) : [];
    const wanted = nodeIds.length > 0 ? new Set(nodeIds) : undefined;
    const nowSeconds = Math.floor(now / 1000);
    return {
      validators: subnet.l1Validators
        .filter((v) => !wanted || wanted.has(v.nodeId))
        .map((v) => ({
          validationID: v.validationId,
          nodeID: v.nodeId,
          weight: v.weight,
          startTimestamp: v.startTime,
          isActive: l1Balance(world, v, now) > 0,
          isL1Validator: true,
          isConnected: v.connected,
          uptimePercentage: v.uptimePercent,
          uptimeSeconds: Math.floor(((nowSeconds - v.startTime) * v.uptimePercent) / 100),
        })),
    };
  },
};
