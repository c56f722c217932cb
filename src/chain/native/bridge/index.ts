/**
 * The Bridge native contract (0x0000000000000000000000000000000001000006), following rskj's
 * co/rsk/peg/Bridge.java: parse the call (selector + ABI arguments), charge the method's fixed
 * cost plus 2 gas per byte of data (getGasForData), refuse local-only methods outside local calls
 * (validateLocalCall) and call types the method does not accept (validateCallMessageType, RSKIP417:
 * getters take CALL and STATICCALL, every other method CALL only; DELEGATECALL and CALLCODE reach
 * no method), run the method, ABI-encode its result.
 *
 * How a failure looks (rskj Bridge.execute throws VMException):
 * - called by a contract (Program.executePrecompiledAndHandleError, RSKIP197): the CALL pushes 0,
 *   returns no data, state rolls back, and only the method's required gas is spent -> 'revert'
 *   with empty data and gasUsed = required gas;
 * - called by the transaction itself (TransactionExecutor): the tx fails with an exception, which is
 *   not a REVERT (eth_call answers "0x" without error) and pays its whole gas limit -> 'failure'.
 *
 * On a fork, the read methods answer as the remote node's Bridge did at the fork block: the same
 * call data sent to the remote with eth_call (fork/remote-state.ts, cached like every remote read),
 * since the Bridge's storage cannot be read slot by slot over RPC. The checks above (gas, local-only,
 * call type) stay local. Methods answered by handlers (handlers.ts) read and write the Bridge's
 * storage on the fork itself, which starts empty: the processed-peg-in getters fall back to the
 * remote for entries the fork's storage lacks (pegin.ts); the peg-out's queue and batches are the
 * fork's own (the remote's are not read).
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { ForkRemoteCalls, NativeCall, NativeCallType, NativeContract, NativeResult, NativeTransfer } from '../types.js';
import { AbiDecodeError, decodeArguments, encodeAbi, selector, type AbiValue } from '../abi.js';
import { GETTERS } from './getters.js';
import { GENESIS_ONLY_BTC, type BridgeBtcSource } from './state.js';
import { confirmationsCost } from './confirmations.js';
import { receiveHeader } from './receive-header.js';
import { BRIDGE_HANDLERS } from './handlers.js';
import type { BridgeLog } from './events.js';
import { BridgeStorage } from './storage.js';
import { BRIDGE_METHODS, DYNAMIC_SELECTORS, RECEIVE_HEADERS_BASE_COST, UNPARSABLE_DATA_COST, type BridgeMethod } from './methods.js';

export const BRIDGE_ADDRESS = hexToBytes('0000000000000000000000000000000001000006');

const BY_SELECTOR = new Map<string, BridgeMethod>();
for (const method of BRIDGE_METHODS) {
  const dynamic = DYNAMIC_SELECTORS[method.name];
  const methodSelector = dynamic
    ? selector(dynamic.slice(0, dynamic.indexOf('(')), dynamic.slice(dynamic.indexOf('(') + 1, -1).split(','))
    : selector(method.name, method.inputs);
  BY_SELECTOR.set(bytesToHex(methodSelector), method);
}

export function bridgeMethodBySelector(selector: Uint8Array): BridgeMethod | undefined {
  return BY_SELECTOR.get(bytesToHex(selector));
}

function fail(call: NativeCall, requiredGas: bigint): NativeResult {
  if (call.depth > 0) return { returnValue: new Uint8Array(0), gasUsed: requiredGas, error: 'revert' };
  return { returnValue: new Uint8Array(0), gasUsed: call.gasLimit, error: 'failure' };
}

function ok(method: BridgeMethod, values: AbiValue[], gasUsed: bigint): NativeResult {
  return { returnValue: encodeAbi(method.outputs, values), gasUsed };
}

interface Parsed {
  method: BridgeMethod;
  args: AbiValue[];
}

const RELEASE_BTC = BRIDGE_METHODS.find((m) => m.name === 'releaseBtc')!;

/**
 * Bridge.parseData: empty data is releaseBtc (a peg-out request); undefined for 1-3 byte data, an
 * unknown selector, or arguments that do not decode.
 */
function parse(data: Uint8Array): Parsed | undefined {
  if (data.length === 0) return { method: RELEASE_BTC, args: [] };
  if (data.length < 4) return undefined;
  const method = bridgeMethodBySelector(data.subarray(0, 4));
  if (!method) return undefined;
  if (DYNAMIC_SELECTORS[method.name]) return { method, args: [] };
  try {
    return { method, args: decodeArguments(method.inputs, data) };
  } catch (e) {
    if (e instanceof AbiDecodeError) return undefined;
    throw e;
  }
}

/** BridgeMethods.acceptsThisTypeOfCall: CallTypeHelper.ALLOW_STATIC_CALL or RESTRICTED_TO_CALL. */
function acceptsCallType(method: BridgeMethod, callType: NativeCallType): boolean {
  return callType === 'CALL' || (callType === 'STATICCALL' && method.allowStatic);
}

function methodCost(parsed: Parsed, btc: BridgeBtcSource): bigint {
  if (parsed.method.name === 'receiveHeaders') return RECEIVE_HEADERS_BASE_COST;
  if (parsed.method.name === 'getBtcTransactionConfirmations') return confirmationsCost(parsed.args, btc);
  return parsed.method.cost;
}

function requiredGasFor(parsed: Parsed | undefined, data: Uint8Array, btc: BridgeBtcSource): bigint {
  if (!parsed) return UNPARSABLE_DATA_COST;
  const cost = methodCost(parsed, btc);
  return cost + 2n * BigInt(data.length);
}

/**
 * A read method on a fork: the remote's return data at the fork block, or at the executing block
 * when that is below the fork block (eth_call at an old block). Empty data is a failure there.
 */
async function remoteRead(call: NativeCall, remote: ForkRemoteCalls, requiredGas: bigint): Promise<NativeResult> {
  const block = call.block.number < remote.forkBlock ? call.block.number : remote.forkBlock;
  const { returnData } = await remote.callAt(block, BRIDGE_ADDRESS, call.data);
  if (returnData.length === 0) return fail(call, requiredGas);
  return { returnValue: returnData, gasUsed: requiredGas };
}

export async function callBridge(call: NativeCall): Promise<NativeResult> {
  const parsed = parse(call.data);
  const btc = call.btc ?? GENESIS_ONLY_BTC;
  const requiredGas = requiredGasFor(parsed, call.data, btc);
  // Program.callToPrecompiledAddress / TransactionExecutor: not enough gas -> no execution, gas gone.
  if (requiredGas > call.gasLimit) return { returnValue: new Uint8Array(0), gasUsed: call.gasLimit, error: 'out of gas' };
  if (!parsed) return fail(call, requiredGas); // "Invalid data given" (BridgeIllegalArgumentException)
  const { method, args } = parsed;
  if (method.localOnly && !call.localCall) return fail(call, requiredGas); // "Non-local-call to …"
  if (!acceptsCallType(method, call.callType)) return fail(call, requiredGas); // "Call type (…) not accepted by …"

  const behaviour = method.behaviour;
  switch (behaviour.kind) {
    case 'read': {
      if (call.remote !== undefined) return remoteRead(call, call.remote, requiredGas);
      const values = await GETTERS[method.name]!(args, btc, new BridgeStorage(call.state));
      return values === undefined ? fail(call, requiredGas) : ok(method, values, requiredGas);
    }
    case 'unauthorised-code':
      return ok(method, [behaviour.code], requiredGas);
    case 'receive-header':
      return ok(method, [receiveHeader(args[0] as Uint8Array, btc)], requiredGas);
    case 'handler': {
      // A getter on a fork answers as the remote's Bridge does, as the 'read' methods do.
      if (call.remote !== undefined && method.allowStatic) return remoteRead(call, call.remote, requiredGas);
      const handler = BRIDGE_HANDLERS[method.name];
      if (handler === undefined) throw new Error(`Bridge.${method.name}: no handler`);
      const logs: BridgeLog[] = [];
      const transfers: NativeTransfer[] = [];
      const answer = await handler({ call, args, storage: new BridgeStorage(call.state), btc, logs, transfers });
      if ('fail' in answer) return { ...fail(call, requiredGas), message: answer.fail };
      return { ...ok(method, answer.values, requiredGas), logs, transfers };
    }
    case 'federation-only':
      return fail(call, requiredGas);
  }
}

export const bridgeContract: NativeContract = {
  address: BRIDGE_ADDRESS,
  name: 'Bridge',
  call: callBridge,
};
