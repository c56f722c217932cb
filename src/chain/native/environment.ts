/**
 * Environment native contract, 0x0000000000000000000000000000000001000011 (RSKIP203):
 * getCallStackDepth() → uint32, free (co/rsk/pcc/environment/GetCallStackDepth.java: gas 0).
 *
 * rskj answers `programInvoke.getCallDeep() + 1`, the depth of the calling program plus one, and
 * 1 when a transaction calls the contract directly (no program invoke). The calling program's
 * depth plus one is the native frame's own depth in ethereumjs's numbering (a transaction's frame
 * is depth 0), so the answer is that depth, at least 1.
 */
import { encodeUint } from './abi.js';
import { nativeContract } from './method.js';

export const ENVIRONMENT_ADDRESS = Uint8Array.from([...new Uint8Array(16), 0x01, 0x00, 0x00, 0x11]);

export const environmentContract = nativeContract(ENVIRONMENT_ADDRESS, 'Environment', [
  {
    name: 'getCallStackDepth',
    inputs: [],
    gas: () => 0n,
    execute: (_args, call) => encodeUint(BigInt(Math.max(call.depth, 1))),
  },
]);
