/**
 * Issue 25's targets, in one table: judged on rsk-devnode's default row (a LevelDB data directory,
 * as `npm start`), each against a fixed bound or a peer's value in the same run. A row with several
 * targets meets them only when it meets all. Rows absent here have no target (shown as —).
 */
import type { NodeId } from './peers.js';

export type Target = { peer: NodeId; factor: number } | { bound: number };

export const TARGETS: Record<string, Target[]> = {
  'cold-start': [{ bound: 250 }],
  'blockNumber-32': [{ peer: 'anvil', factor: 0.8 }],
  getBalance: [{ peer: 'anvil', factor: 0.8 }],
  'getBalance-new': [{ peer: 'anvil', factor: 0.6 }],
  call: [{ peer: 'anvil', factor: 0.5 }],
  'call-new': [{ peer: 'anvil', factor: 0.5 }],
  'transfer-serial': [
    { peer: 'hardhat', factor: 1.3 },
    { peer: 'anvil', factor: 0.8 },
  ],
  'transfer-parallel': [
    { peer: 'hardhat', factor: 1.3 },
    { peer: 'anvil', factor: 0.8 },
  ],
  snapshot: [{ peer: 'anvil', factor: 1 }],
  'event-blocks': [{ peer: 'hardhat', factor: 1.5 }],
  getLogs: [{ peer: 'anvil', factor: 1 }],
  memory: [{ bound: 130 }],
};
