/**
 * sco_: the ban list and peer scoring (reference 10.4). rskj scores p2p peers; here the peers are
 * the node's RPC clients (gateway/ban-list.ts, gateway/client-reputation.ts,
 * server/client-tracking.ts). Node-wide: both networks share one list and one record. Operator
 * only: access.ts refuses sco_ to dashboard keys on a --hosted node.
 */
import { clientAddressOf, InvalidBannedAddress } from '../../gateway/ban-list.js';
import type { NodeClients, RpcContext } from '../context.js';
import { method } from '../context.js';
import { InternalError, InvalidParams } from '../errors.js';
import { declareParams, noParams, shortened, shown } from '../params.js';

/**
 * rskj takes the argument as a Java String: JSON scalars become their text, a missing one is
 * null; whatever it is, an unusable value answers "invalid banned address <it>".
 */
/** Longest client address text worth parsing (an IPv6 block in brackets with its /bits is under 60). */
const MAX_ADDRESS_CHARS = 100;

const addressArgument = declareParams([{ name: 'address', required: true }], (raw: unknown[]): [string] => {
  if (raw.length > 1) throw new InvalidParams('too many arguments, want at most 1');
  const value = raw[0];
  if (typeof value === 'string') {
    // No address or CIDR block is longer (IPv6 in brackets with /128 is under 60): refuse before parsing.
    if (value.length > MAX_ADDRESS_CHARS) throw new InvalidParams(`invalid banned address ${shortened(value)}: longer than any IP address or block`);
    return [value];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  throw new InvalidParams(`invalid banned address ${value === undefined || value === null ? 'null' : shown(value)}`);
});

/** sco_clearPeerScoring's id: an IP address (rskj also takes a node id, which RPC clients have none of). */
const idArgument = declareParams([{ name: 'id', required: true }], (raw: unknown[]): [string] => {
  if (raw.length > 1) throw new InvalidParams('too many arguments, want at most 1');
  const value = raw[0];
  if (typeof value !== 'string') throw new InvalidParams('missing value for required argument 0 (id): a client address');
  return [value];
});

function clientsOf(ctx: RpcContext): NodeClients {
  if (ctx.clients === undefined) throw new InternalError('Internal server error: this node keeps no client list');
  return ctx.clients;
}

async function changeBans(ctx: RpcContext, change: 'ban' | 'unban', address: string): Promise<null> {
  try {
    await clientsOf(ctx).bans[change](address);
  } catch (err) {
    if (err instanceof InvalidBannedAddress) throw new InvalidParams(err.message);
    throw err;
  }
  return null;
}

export const scoMethods = [
  method(
    'sco_banAddress',
    'Bans a client address or CIDR block ("10.0.0.7", "10.0.0.0/8", IPv6 too) on both networks; persisted. → null',
    addressArgument,
    (ctx, [address]) => changeBans(ctx, 'ban', address),
  ),
  method(
    'sco_unbanAddress',
    'Lifts a ban given as it was banned (a block by its address and bits). → null',
    addressArgument,
    (ctx, [address]) => changeBans(ctx, 'unban', address),
  ),
  method(
    'sco_bannedAddresses',
    'Banned addresses, then blocks as "<address>/<bits>".',
    noParams,
    (ctx) => clientsOf(ctx).bans.list(),
  ),
  method(
    'sco_peerList',
    'One rskj PeerScoringInformation (type "address") per client address seen, least recently active first.',
    noParams,
    (ctx) => clientsOf(ctx).reputation.peerList(),
  ),
  method(
    'sco_reputationSummary',
    'rskj PeerScoringReputationSummary: the peer list\'s counters, scores and punishments summed.',
    noParams,
    (ctx) => clientsOf(ctx).reputation.summary(),
  ),
  method(
    'sco_clearPeerScoring',
    'Forgets a client address\'s scoring (a string that is no IP address clears nothing); → sco_peerList.',
    idArgument,
    (ctx, [id]) => {
      const clients = clientsOf(ctx);
      // A string longer than any address is none: not parsed (nor kept in clientAddressOf's cache).
      const address = id.length > MAX_ADDRESS_CHARS ? undefined : clientAddressOf(id.trim());
      if (address !== undefined) clients.reputation.clear(address);
      return clients.reputation.peerList();
    },
  ),
];
