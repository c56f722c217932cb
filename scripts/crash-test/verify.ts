/**
 * The checks after each restart: the chain is whole and self-consistent, and everything the ledger
 * holds (acknowledged transactions, reverts, balances, users, keys) is still as answered.
 * Each problem found is one line in the returned list.
 */
import { getBytes, keccak256 } from 'ethers';
import { MAX_LOG_BLOCK_RANGE } from '../../src/chain/storage/log-query.js';
import type { Ledger } from './ledger.js';
import { DashboardClient, callMany } from './rpc.js';

/** Users re-checked after every restart besides the newest ones (logins cost a password hash). */
const OLDER_USERS_CHECKED = 3;

interface Log {
  address: string;
  topics: string[];
  data: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  transactionIndex: string;
}

/** The 2048-bit bloom of some logs (yellow paper 4.3.1), 0x hex. */
export function logsBloom(logs: Array<{ address: string; topics: string[] }>): string {
  const bloom = new Uint8Array(256);
  const add = (value: string) => {
    const hash = getBytes(keccak256(value));
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
    }
  };
  for (const log of logs) {
    add(log.address);
    log.topics.forEach(add);
  }
  return `0x${Buffer.from(bloom).toString('hex')}`;
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
const hex = (n: number) => `0x${n.toString(16)}`;
const logId = (log: Log) => `${log.blockHash}/${log.logIndex}/${log.transactionHash}/${log.address}/${log.data}/${log.topics.join(',')}`;

/** Blocks 0..head link up; blocks from `deepFrom` get the full receipts/index/logs check. Returns the head. */
export async function verifyChain(url: string, deepFrom: number, problems: string[]): Promise<number> {
  const [headHex] = await callMany(url, 'eth_blockNumber', [[]]);
  const head = Number(headHex);
  const headers = await callMany(url, 'eth_getBlockByNumber', range(0, head).map((n) => [hex(n), false]));
  headers.forEach((block, n) => {
    if (block === null) return problems.push(`block ${n} of head ${head} is missing`);
    if (Number(block.number) !== n) problems.push(`block ${n} answers number ${block.number}`);
    if (n > 0 && headers[n - 1] !== null && block.parentHash !== headers[n - 1].hash) problems.push(`block ${n}'s parentHash does not link to block ${n - 1}`);
  });
  const from = Math.max(0, Math.min(deepFrom, head));
  const blocks = await callMany(url, 'eth_getBlockByNumber', range(from, head).map((n) => [hex(n), true]));
  const allLogs: Log[] = [];
  for (const block of blocks) {
    if (block === null) continue;
    const where = `block ${Number(block.number)}`;
    const txs = block.transactions as any[];
    const receipts = await callMany(url, 'eth_getTransactionReceipt', txs.map((tx) => [tx.hash]));
    const byHash = await callMany(url, 'eth_getTransactionByHash', txs.map((tx) => [tx.hash]));
    let cumulative = 0n;
    const blockLogs: Log[] = [];
    txs.forEach((tx, i) => {
      const receipt = receipts[i];
      const found = byHash[i];
      if (receipt === null) return problems.push(`${where}: no receipt for transaction ${i} ${tx.hash}`);
      if (receipt.transactionHash !== tx.hash || receipt.blockHash !== block.hash || Number(receipt.transactionIndex) !== i || receipt.blockNumber !== block.number) {
        problems.push(`${where}: receipt of ${tx.hash} points at ${receipt.blockHash} #${receipt.transactionIndex}`);
      }
      if (found === null || found.blockHash !== block.hash || Number(found.transactionIndex) !== i) {
        problems.push(`${where}: eth_getTransactionByHash(${tx.hash}) disagrees with the block`);
      }
      cumulative += BigInt(receipt.gasUsed);
      if (BigInt(receipt.cumulativeGasUsed) !== cumulative) problems.push(`${where}: cumulativeGasUsed of transaction ${i} is ${receipt.cumulativeGasUsed}, gas used adds up to ${cumulative}`);
      if (receipt.logsBloom !== logsBloom(receipt.logs)) problems.push(`${where}: receipt ${i}'s logsBloom does not match its logs`);
      for (const log of receipt.logs as Log[]) {
        if (log.blockHash !== block.hash || log.transactionHash !== tx.hash) problems.push(`${where}: a log of ${tx.hash} points elsewhere`);
        blockLogs.push(log);
      }
    });
    if (BigInt(block.gasUsed) !== cumulative) problems.push(`${where}: gasUsed ${block.gasUsed}, receipts add up to ${cumulative}`);
    if (block.logsBloom !== logsBloom(blockLogs)) problems.push(`${where}: logsBloom does not match its receipts' logs`);
    blockLogs.forEach((log, i) => {
      if (Number(log.logIndex) !== i) problems.push(`${where}: log ${i} has logIndex ${log.logIndex}`);
    });
    allLogs.push(...blockLogs);
  }
  if (blocks.length > 0) {
    // In windows the node answers whatever their logs: the whole chain can hold more than MAX_LOGS.
    const windows: unknown[][] = [];
    for (let start = from; start <= head; start += MAX_LOG_BLOCK_RANGE) windows.push([{ fromBlock: hex(start), toBlock: hex(Math.min(head, start + MAX_LOG_BLOCK_RANGE - 1)) }]);
    const found = ((await callMany(url, 'eth_getLogs', windows)) as Log[][]).flat();
    const expected = new Set(allLogs.map(logId));
    const got = new Set(found.map(logId));
    if (got.size !== expected.size || [...expected].some((id) => !got.has(id))) {
      problems.push(`eth_getLogs ${from}..${head}: ${got.size} logs, the receipts hold ${expected.size}`);
    }
  }
  return head;
}

/** Acknowledged transactions present (in the block their receipt named), reverted ones absent. */
export async function verifyTransactions(url: string, ledger: Ledger, problems: string[]): Promise<void> {
  // A revert cut short by the kill: its blocks are either all there or all gone (one batch).
  for (const group of ledger.revertGroups.filter((g) => !g.answered)) {
    const receipts = await callMany(url, 'eth_getTransactionReceipt', group.hashes.map((h) => [h]));
    const present = receipts.filter((r) => r !== null).length;
    if (present !== 0 && present !== group.hashes.length) {
      problems.push(`a revert interrupted by the kill left ${present} of its ${group.hashes.length} transactions`);
    } else if (present === 0) {
      for (const hash of group.hashes) {
        ledger.txs.delete(hash);
        ledger.reverted.add(hash);
      }
    }
    group.answered = true;
  }
  const hashes = [...ledger.txs.keys()];
  const receipts = await callMany(url, 'eth_getTransactionReceipt', hashes.map((h) => [h]));
  hashes.forEach((hash, i) => {
    const receipt = receipts[i];
    const expected = ledger.txs.get(hash)!.blockHash;
    if (receipt === null) problems.push(`LOST: transaction ${hash} (acknowledged${expected ? `, receipt in ${expected}` : ''}) has no receipt`);
    else if (expected !== undefined && receipt.blockHash !== expected) problems.push(`CHANGED: transaction ${hash} moved from block ${expected} to ${receipt.blockHash}`);
  });
  const reverted = [...ledger.reverted];
  const gone = await callMany(url, 'eth_getTransactionReceipt', reverted.map((h) => [h]));
  reverted.forEach((hash, i) => {
    if (gone[i] !== null) problems.push(`RESURRECTED: transaction ${hash} was reverted but has a receipt`);
  });
  const addresses = [...ledger.balances.keys()];
  const balances = await callMany(url, 'eth_getBalance', addresses.map((a) => [a, 'latest']));
  addresses.forEach((address, i) => {
    if (BigInt(balances[i]) !== ledger.balances.get(address)) problems.push(`LOST: hardhat_setBalance(${address}) = ${ledger.balances.get(address)}, now ${BigInt(balances[i])}`);
  });
}

/** Users can log in and hold exactly their acknowledged keys; revoked keys stay revoked and refused. */
export async function verifyGateway(baseUrl: string, ledger: Ledger, all: boolean, sinceLife: number, problems: string[]): Promise<number> {
  const users = [...ledger.users.values()];
  const older = users.filter((u) => u.life < sinceLife);
  const chosen = all ? users : [...users.filter((u) => u.life >= sinceLife), ...older.sort(() => Math.random() - 0.5).slice(0, OLDER_USERS_CHECKED)];
  for (const user of chosen) {
    const client = new DashboardClient(baseUrl);
    if (!(await client.login(user.email, user.password))) {
      problems.push(`LOST: user ${user.email} cannot log in`);
      continue;
    }
    const listed = (await client.request('GET', '/keys')).body.keys as Array<{ id: string; key: string; revokedAt: string | null }>;
    const byId = new Map(listed.map((k) => [k.id, k]));
    for (const key of user.keys.values()) {
      const found = byId.get(key.id);
      if (found === undefined) {
        problems.push(`LOST: key ${key.id} of ${user.email}`);
        continue;
      }
      if (key.revoking && !key.revoked) {
        // Revocation sent but not answered before the kill: take what the node holds now.
        key.revoked = found.revokedAt !== null;
        key.revoking = false;
      }
      if (key.revoked && found.revokedAt === null) problems.push(`UNREVOKED: key ${key.id} of ${user.email} was revoked and is active again`);
      else if (found.key !== key.key) problems.push(`CHANGED: key ${key.id} of ${user.email} has another key string`);
    }
    for (const key of user.keys.values()) {
      const response = await fetch(`${baseUrl}/${key.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      const answer = (await response.json()) as { result?: string };
      if (key.revoked && answer.result !== undefined) problems.push(`UNREVOKED: revoked key ${key.id} of ${user.email} still answers RPC`);
      if (!key.revoked && answer.result === undefined) problems.push(`LOST: key ${key.id} of ${user.email} is refused on RPC`);
    }
  }
  return chosen.length;
}
