/**
 * State dump and load (anvil_dumpState / anvil_loadState, --dump-state / --load-state): a chain's
 * blocks and receipts as stored, every state trie node (so every block's state stays readable)
 * and the state records of test control. A load first reads the whole file and checks it (layout,
 * counts, every block decoded and linked to its parent, receipts matching their block); only then,
 * under the lock, does it replace the store's contents, rebuilding the indexes as commitBlock
 * writes them. A file that fails a check changes nothing.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainParts } from './parts.js';
import type { TestControl } from './control.js';
import { isStateMeta } from './head.js';
import type { ChainRecord } from './storage/store.js';
import type { RskBlock } from './records/block.js';
import { storedForkPoint } from './fork-base.js';
import { type BlockRecord, type ForkPoint, type NetworkHeader, type NetworkSection, badStateFile, parseStateFile } from './dump/format.js';
import { type StateSource, openState } from './dump/io.js';
import { decodeStoredBlock } from './records/block.js';
import { decodeBlockReceipts } from './records/receipt.js';


export class StateTransfer {
  constructor(
    private readonly parts: ChainParts,
    private readonly control: TestControl,
  ) {}

  /** Runs `use` on this chain's section under the lock: no block is committed while it is read. */
  dump<T>(use: (section: NetworkSection) => Promise<T>): Promise<T> {
    const { lock, store, head, network, common } = this.parts;
    return lock.run(async () => {
      const headNumber = head.block.header.number;
      // A fork holds its blocks from the fork block up (the remote's below it are never stored).
      const fork = await storedForkPoint(store);
      const first = fork?.block ?? 0n;
      const meta: Array<[string, Uint8Array]> = [];
      for await (const [name, value] of store.metaRecords()) if (isStateMeta(name)) meta.push([name, value]);
      async function* blocks(): AsyncGenerator<BlockRecord> {
        for (let n = first; n <= headNumber; n++) {
          const record = await store.rawBlock(n);
          if (record === undefined) throw new Error(`chain data is damaged: block ${n} is missing`);
          yield record;
        }
      }
      const header: NetworkHeader = { network, chainId: common.chainId(), headNumber, headHash: head.block.hash, meta, ...(fork === undefined ? {} : { fork }) };
      return use({ header, blocks: blocks(), nodes: store.stateNodes() });
    });
  }

  /**
   * Reads a state file and checks it in full, changing nothing; returns what loads it (undefined
   * when the file, in this node's format, holds no chain with this chain id). This node's format
   * replaces the chain with the file's; an anvil file's accounts are merged into the latest state,
   * as anvil merges them.
   */
  async prepare(source: StateSource): Promise<(() => Promise<void>) | undefined> {
    const opened = await openState(source);
    if (opened.kind === 'anvil') return () => this.control.putAccounts(opened.accounts);
    const chainId = this.parts.common.chainId();
    const header = await checkSection(opened.lines(), source.name, chainId, await storedForkPoint(this.parts.store));
    if (header === undefined) return undefined;
    const { lock, store, head, pool, clock, events } = this.parts;
    return () =>
      lock.run(async () => {
        let loadedHead!: RskBlock;
        // Reads wait until the head is the loaded one too: none sees a half-written chain.
        await store.replaceChain(sectionRecords(opened.lines(), source.name, chainId), isStateMeta, async (block) => {
          loadedHead = block;
          await head.replaced(block);
          pool.clear();
          clock.reset();
          this.control.forgetSnapshots();
        });
        // Filters and subscriptions start over from the loaded head, as after a revert to it.
        events.emit('rewind', [], loadedHead);
      });
  }
}

/** This chain's records in a file already checked: its blocks, state nodes and meta records. */
async function* sectionRecords(lines: AsyncIterable<string>, file: string, chainId: bigint): AsyncGenerator<ChainRecord> {
  for await (const event of parseStateFile(lines, file, (header) => header.chainId === chainId)) {
    if (event.kind === 'network') {
      for (const [meta, value] of event.header.meta) yield { meta, value };
    } else if (event.kind === 'block') yield { block: event.block, receipts: event.receipts };
    else yield { node: event.node, value: event.value };
  }
}

/**
 * A section loads on this chain only if both fork the same remote block or neither forks: a load
 * never writes over the remote's blocks, and a fork's file has none of the blocks below its fork.
 */
function checkSameFork(header: NetworkHeader, fork: ForkPoint | undefined, file: string, where: string): void {
  const named = (f: ForkPoint) => `a fork of chain ${f.chainId} at block ${f.block} (${bytesToHex(f.hash)})`;
  const theFile = header.fork;
  if (theFile === undefined && fork !== undefined) {
    throw badStateFile(file, `${where} is a chain from its genesis and this node is ${named(fork)}: loading it would write over the remote's blocks; load it into a node started without --fork-url`);
  }
  if (theFile !== undefined && fork === undefined) {
    throw badStateFile(file, `${where} is ${named(theFile)} and this node is not a fork; start it with --fork-url <a node of chain ${theFile.chainId}> --fork-block ${theFile.block} to load it`);
  }
  if (theFile !== undefined && fork !== undefined && (theFile.chainId !== fork.chainId || theFile.block !== fork.block || !equalsBytes(theFile.hash, fork.hash))) {
    throw badStateFile(file, `${where} is ${named(theFile)} and this node is ${named(fork)}; load it into a fork of the same block`);
  }
}

/**
 * Reads the whole file and checks it; returns the header of the section with `chainId` (undefined
 * when there is none) once every check passed, or throws naming the file and the fault.
 */
async function checkSection(lines: AsyncIterable<string>, file: string, chainId: bigint, fork: ForkPoint | undefined): Promise<NetworkHeader | undefined> {
  let found: NetworkHeader | undefined;
  let next = 0n;
  let parent: Uint8Array | undefined;
  /** The last block's state root, as the state nodes name it (unprefixed hex). */
  let stateRoot = '';
  let sawStateRoot = false;
  for await (const event of parseStateFile(lines, file, (header) => header.chainId === chainId)) {
    if (event.kind === 'network') {
      if (found !== undefined) throw badStateFile(file, `two sections for chain ${chainId}`);
      const unknown = event.header.meta.find(([name]) => !isStateMeta(name));
      if (unknown !== undefined) throw badStateFile(file, `unknown meta record ${JSON.stringify(unknown[0].slice(0, 80))}`);
      checkSameFork(event.header, fork, file, `network ${event.header.network} (chain ${chainId})`);
      found = event.header;
      next = fork?.block ?? 0n;
    } else if (event.kind === 'block') {
      const block = checkBlock(event, next, parent, file);
      // A fork's first block is its copy of the remote fork block, under the remote's hash.
      if (parent === undefined && fork !== undefined && !equalsBytes(block.hash, fork.hash)) throw badStateFile(file, `block ${next}: not the fork block ${bytesToHex(fork.hash)}`);
      parent = block.hash;
      stateRoot = bytesToHex(block.header.stateRoot).slice(2);
      next++;
    } else if (event.node === stateRoot) sawStateRoot = true;
  }
  if (found === undefined) return undefined;
  const where = `network ${found.network} (chain ${chainId})`;
  if (parent === undefined) throw badStateFile(file, `${where} has no blocks`);
  if (next - 1n !== found.headNumber || !equalsBytes(parent!, found.headHash)) {
    throw badStateFile(file, `${where}: its blocks end at ${next - 1n} ${bytesToHex(parent!)}, not at the head it names (${found.headNumber} ${bytesToHex(found.headHash)})`);
  }
  if (!sawStateRoot) throw badStateFile(file, `${where}: the head block's state root 0x${stateRoot} is not among its state nodes`);
  return found;
}

function checkBlock(record: BlockRecord, number: bigint, parent: Uint8Array | undefined, file: string) {
  const fail = (problem: string) => badStateFile(file, `block ${number}: ${problem}`);
  let block;
  let receipts;
  try {
    block = decodeStoredBlock(record.block);
    receipts = decodeBlockReceipts(record.receipts);
  } catch (err) {
    throw fail(`not a stored block and its receipts (${(err as Error).message})`);
  }
  if (block.header.number !== number) throw fail(`found block ${block.header.number} where block ${number} belongs`);
  if (parent !== undefined && !equalsBytes(block.header.parentHash, parent)) throw fail('its parent hash is not the previous block\'s hash');
  if (!equalsBytes(receipts.blockHash, block.hash) || receipts.blockNumber !== number) throw fail('its receipts belong to another block');
  if (receipts.receipts.length !== block.transactions.length) throw fail(`${block.transactions.length} transactions but ${receipts.receipts.length} receipts`);
  return block;
}
