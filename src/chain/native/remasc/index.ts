/**
 * REMASC (`0x…01000008`), RSK's fee distributor, as rskj's regtest runs it
 * (rskj-core/src/main/java/co/rsk/remasc/: Remasc.java, RemascContract.java,
 * RemascStorageProvider.java, RemascFeesPayer.java, RemascState.java; config in constants.ts).
 *
 * Transaction fees are credited to REMASC's balance as blocks execute (execution.ts makes REMASC
 * the EVM's fee recipient). The REMASC transaction that closes block N runs `processMinersFees`
 * (block-builder.ts): once N − maturity ≥ 1 it adds the paidFees of block N − maturity to the
 * reward balance; once N − maturity ≥ syntheticSpan it takes a fifth (1/syntheticSpan) of that
 * balance and, if that is at least the executing block's minimumGasPrice × 200,000 (RSKIP85),
 * pays RSK Labs a fifth of it, the federators 1/100 of the rest (held back in federationBalance
 * while each federator's part is below minimumGasPrice × 50,000), and the rest to the coinbase of
 * block N − maturity. Each payment moves REMASC's balance and logs `mining_fee_topic`.
 *
 * This node has one chain and no uncles, so no block has siblings: the sibling payments, the
 * publishers' share and the broken-selection-rule punishment (which needs siblings to arise) never
 * apply, and burnedBalance stays 0, as on an rskj regtest node mining alone.
 *
 * State lives in REMASC's storage under rskj's keys, so it follows the state root (restarts,
 * evm_revert, eth_call at any block). `getStateForDebugging` answers RLP(RemascState) as rskj's.
 */
import { RLP } from '@ethereumjs/rlp';
import { Account, Address, bigIntToUnpaddedBytes, bytesToBigInt, equalsBytes, setLengthLeft } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { REMASC_ADDRESS } from '../../base/addresses.js';
import type { RskBlock } from '../../records/block.js';
import { encodeBytes, selector } from '../abi.js';
import type { NativeContract, NativeResult } from '../types.js';
import {
  FEDERATOR_ADDRESSES,
  FEDERATOR_MINIMUM_PAYABLE_GAS,
  MINIMUM_PAYABLE_GAS,
  MINING_FEE_TOPIC,
  REMASC_CONFIG,
  STORAGE_KEYS,
} from './constants.js';

export { FEDERATOR_ADDRESSES, MINING_FEE_TOPIC, REMASC_CONFIG, STORAGE_KEYS } from './constants.js';

const REMASC = new Address(REMASC_ADDRESS);
/** RLP.encodedEmptyList(): what rskj stores under "siblings" since 0.5.0. */
const EMPTY_RLP_LIST = Uint8Array.of(0xc0);
const EMPTY = new Uint8Array(0);

export type RemascLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array];

/** rskj's RemascState: what getStateForDebugging reports. */
export interface RemascState {
  rewardBalance: bigint;
  burnedBalance: bigint;
  brokenSelectionRule: boolean;
}

/**
 * RemascStorageProvider: values read lazily from REMASC's storage, set in memory, written by
 * `save()` (only those that were set, plus the constant empty siblings list).
 */
class StorageProvider {
  private rewardBalance?: bigint;
  private burnedBalance?: bigint;
  private federationBalance?: bigint;
  private brokenSelectionRule?: boolean;

  constructor(private readonly state: MerkleStateManager) {}

  private async word(key: Uint8Array): Promise<Uint8Array> {
    if ((await this.state.getAccount(REMASC)) === undefined) return EMPTY;
    return this.state.getStorage(REMASC, key);
  }

  async getRewardBalance(): Promise<bigint> {
    return this.rewardBalance ?? bytesToBigInt(await this.word(STORAGE_KEYS.rewardBalance));
  }
  setRewardBalance(value: bigint): void {
    this.rewardBalance = value;
  }
  async getBurnedBalance(): Promise<bigint> {
    return this.burnedBalance ?? bytesToBigInt(await this.word(STORAGE_KEYS.burnedBalance));
  }
  addToBurnBalance(current: bigint, amount: bigint): void {
    this.burnedBalance = current + amount;
  }
  async getFederationBalance(): Promise<bigint> {
    return this.federationBalance ?? bytesToBigInt(await this.word(STORAGE_KEYS.federationBalance));
  }
  setFederationBalance(value: bigint): void {
    this.federationBalance = value;
  }
  async getBrokenSelectionRule(): Promise<boolean> {
    if (this.brokenSelectionRule !== undefined) return this.brokenSelectionRule;
    // Stored as bytes; the first byte decides. (Stored 0x00 reads back empty here: see save.)
    const bytes = await this.word(STORAGE_KEYS.brokenSelectionRule);
    return bytes.length > 0 && bytes[0] !== 0;
  }
  setBrokenSelectionRule(value: boolean): void {
    this.brokenSelectionRule = value;
  }

  /**
   * RemascStorageProvider.save. Values are stored without leading zeros, so a zero balance or a
   * false flag deletes the slot (rskj keeps a 0x00 byte for the flag; both read back as zero).
   */
  async save(): Promise<void> {
    await ensureAccount(this.state, REMASC);
    // A slot already holding the value is left alone (same state, no storage-trie rewrite).
    const put = async (key: Uint8Array, value: Uint8Array) => {
      if (!equalsBytes(await this.state.getStorage(REMASC, key), value)) await this.state.putStorage(REMASC, key, value);
    };
    if (this.rewardBalance !== undefined) await put(STORAGE_KEYS.rewardBalance, bigIntToUnpaddedBytes(this.rewardBalance));
    if (this.burnedBalance !== undefined) await put(STORAGE_KEYS.burnedBalance, bigIntToUnpaddedBytes(this.burnedBalance));
    await put(STORAGE_KEYS.siblings, EMPTY_RLP_LIST);
    if (this.brokenSelectionRule !== undefined) await put(STORAGE_KEYS.brokenSelectionRule, this.brokenSelectionRule ? Uint8Array.of(1) : EMPTY);
    if (this.federationBalance !== undefined) await put(STORAGE_KEYS.federationBalance, bigIntToUnpaddedBytes(this.federationBalance));
  }
}

async function ensureAccount(state: MerkleStateManager, address: Address): Promise<Account> {
  const account = await state.getAccount(address);
  if (account !== undefined) return account;
  const created = new Account();
  await state.putAccount(address, created);
  return created;
}

/** RemascFeesPayer.payMiningFees: move `value` from REMASC to `to` and log it. */
async function payMiningFees(state: MerkleStateManager, logs: RemascLog[], blockHash: Uint8Array, value: bigint, to: Uint8Array): Promise<void> {
  const remasc = await ensureAccount(state, REMASC);
  // On RSK the balance always covers the payment (it holds every fee not yet paid). Here
  // hardhat_setBalance can lower it; pay what there is rather than make every later block fail.
  const paid = value <= remasc.balance ? value : remasc.balance;
  remasc.balance -= paid;
  await state.putAccount(REMASC, remasc);
  const recipientAddress = new Address(to);
  // rskj's addBalance creates the recipient's account, even for 0.
  const recipient = await ensureAccount(state, recipientAddress);
  recipient.balance += paid;
  await state.putAccount(recipientAddress, recipient);
  // The log states what moved: after such a cut it may be less than rskj's books say was due.
  logs.push([REMASC_ADDRESS, [MINING_FEE_TOPIC, setLengthLeft(to, 32)], RLP.encode([blockHash, paid])]);
}

/** What the REMASC transaction of a block needs to know. */
export interface RemascExecution {
  /** The executing block (the one the REMASC transaction closes). */
  number: bigint;
  minimumGasPrice: bigint;
  /** Canonical blocks below the executing one, by number. */
  blockAt(number: bigint): Promise<RskBlock | undefined>;
  /**
   * The first block whose fees REMASC takes: 1, or a fork's first local block (the remote's
   * REMASC took the fees of the blocks up to the fork block; the fork's REMASC state starts empty).
   */
  firstBlock: bigint;
}

/**
 * Remasc.processMinersFees followed by RemascContract's save, on `state` (the state after the
 * block's other transactions). Returns the logs of the REMASC transaction's receipt.
 */
export async function processMinersFees(state: MerkleStateManager, execution: RemascExecution): Promise<RemascLog[]> {
  const provider = new StorageProvider(state);
  const logs: RemascLog[] = [];
  await distribute(state, provider, execution, logs);
  await provider.save();
  return logs;
}

async function distribute(state: MerkleStateManager, provider: StorageProvider, execution: RemascExecution, logs: RemascLog[]): Promise<void> {
  const { maturity, syntheticSpan, rskLabsDivisor, punishmentDivisor, federationDivisor, rskLabsAddress } = REMASC_CONFIG;
  const candidate = execution.number - maturity;
  if (candidate < execution.firstBlock) return;

  // With no forks, the block at depth `maturity` below the executing block is the processing block.
  const processing = await execution.blockAt(candidate);
  if (processing === undefined) throw new Error(`REMASC: block ${candidate} (to be rewarded at block ${execution.number}) is missing`);

  let rewardBalance = (await provider.getRewardBalance()) + processing.header.paidFees;
  provider.setRewardBalance(rewardBalance);

  if (candidate - syntheticSpan < 0n) return;

  // No siblings here: the selection rule can only be "broken" by a sibling.
  const previousBrokenSelectionRule = await provider.getBrokenSelectionRule();
  provider.setBrokenSelectionRule(false);

  let syntheticReward = rewardBalance / syntheticSpan;
  // RSKIP85: below minimumGasPrice × minimumPayableGas nothing is paid (the balance keeps it).
  if (syntheticReward < execution.minimumGasPrice * MINIMUM_PAYABLE_GAS) return;

  rewardBalance -= syntheticReward;
  provider.setRewardBalance(rewardBalance);

  const blockHash = processing.hash;
  const payToRskLabs = syntheticReward / rskLabsDivisor;
  await payMiningFees(state, logs, blockHash, payToRskLabs, rskLabsAddress);
  syntheticReward -= payToRskLabs;

  // Remasc.payToFederation
  const federationReward = syntheticReward / federationDivisor;
  const payToFederation = (await provider.getFederationBalance()) + federationReward;
  const federators = BigInt(FEDERATOR_ADDRESSES.length);
  const payToFederator = payToFederation / federators;
  const restToLastFederator = payToFederation % federators;
  if (payToFederator < execution.minimumGasPrice * FEDERATOR_MINIMUM_PAYABLE_GAS) {
    provider.setFederationBalance(payToFederation);
  } else {
    provider.setFederationBalance(0n);
    for (let k = 0; k < FEDERATOR_ADDRESSES.length; k++) {
      const last = k === FEDERATOR_ADDRESSES.length - 1;
      await payMiningFees(state, logs, blockHash, last ? payToFederator + restToLastFederator : payToFederator, FEDERATOR_ADDRESSES[k]!);
    }
  }
  syntheticReward -= federationReward;

  if (previousBrokenSelectionRule) {
    // Unreachable without siblings; kept as rskj has it.
    const punishment = syntheticReward / punishmentDivisor;
    syntheticReward -= punishment;
    provider.addToBurnBalance(await provider.getBurnedBalance(), punishment);
  }
  await payMiningFees(state, logs, blockHash, syntheticReward, processing.header.coinbase);
}

/** REMASC's state as getStateForDebugging reports it, read from `state`. */
export async function readRemascState(state: MerkleStateManager): Promise<RemascState> {
  const provider = new StorageProvider(state);
  return {
    rewardBalance: await provider.getRewardBalance(),
    burnedBalance: await provider.getBurnedBalance(),
    brokenSelectionRule: await provider.getBrokenSelectionRule(),
  };
}

/**
 * RemascState.getEncoded: RLP list [rewardBalance, burnedBalance, [] (the former siblings),
 * flag], the flag being the raw byte 0x00 or 0x01 (a valid single-byte RLP item).
 */
export function encodeRemascState(s: RemascState): Uint8Array {
  return RLP.encode([s.rewardBalance, s.burnedBalance, [], Uint8Array.of(s.brokenSelectionRule ? 1 : 0)]);
}

const GET_STATE_FOR_DEBUGGING = selector('getStateForDebugging', []);
const PROCESS_MINERS_FEES = selector('processMinersFees', []);

function fail(message: string): NativeResult {
  return { returnValue: EMPTY, gasUsed: 0n, error: 'failure', message };
}

/**
 * RemascContract as a native contract (getGasForData = 0). Call data must be empty
 * (processMinersFees) or exactly a 4-byte known selector, else "Invalid function signature".
 * processMinersFees is the REMASC transaction's own, run by the block builder; any other caller
 * gets "Invoked Remasc outside last tx of the block", as in rskj.
 */
export const remascContract: NativeContract = {
  address: REMASC_ADDRESS,
  name: 'REMASC',
  async call(call): Promise<NativeResult> {
    const data = call.data;
    if (data.length !== 0 && data.length !== 4) return fail('Invalid function signature');
    if (data.length === 0 || equal4(data, PROCESS_MINERS_FEES)) return fail('Invoked Remasc outside last tx of the block');
    if (!equal4(data, GET_STATE_FOR_DEBUGGING)) return fail('Invalid function signature');
    const state = await readRemascState(call.state);
    // RemascContract.execute saves after every method: for this one, only the constant siblings
    // slot, which every block's REMASC transaction has already written.
    if (!call.isStatic) await new StorageProvider(call.state).save();
    return { returnValue: encodeBytes(encodeRemascState(state)), gasUsed: 0n };
  },
};

function equal4(a: Uint8Array, b: Uint8Array): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}
