import { PRIMARY_NETWORK_ID } from '../state.js';
import { validatorWeights } from '../peer-view.js';
import { RpcFailure, type MethodHandler } from './types.js';

/**
 * platform.getValidatorsAt for the primary network, as AvalancheGo v1.15 marshals it: the result is
 * the map itself, `{"NodeID-...": {"publicKey": "0x..", "weight": "2000000000000"}}` (the published
 * docs still show an older `{validators: {id: weight}}` shape).
 */
export const validatorSetMethods: Record<string, MethodHandler> = {
  'platform.getValidatorsAt': (params, state) => {
    if (params.height === undefined) throw new RpcFailure('height: missing');
    const subnet = params.subnetID === undefined || params.subnetID === '' ? PRIMARY_NETWORK_ID : String(params.subnetID);
    if (subnet !== PRIMARY_NETWORK_ID) throw new RpcFailure(`failed to get validator set at proposed: subnet ${subnet} not found`);
    return Object.fromEntries(
      [...validatorWeights(state)].map(([nodeId, weight]) => [nodeId, { publicKey: `0x${'8f'.repeat(48)}`, weight: String(weight) }]),
    );
  },
};
