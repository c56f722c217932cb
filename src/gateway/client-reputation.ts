/**
 * What sco_peerList and sco_reputationSummary report: one record per client address that has
 * talked to the RPC port, scored by rskj's rules (`PeerScoring`, `ScoringCalculator`,
 * `PunishmentCalculator`, reference 10.4) with rskj's default address punishment
 * (reference.conf `scoring.addresses`). A devnode reports reputation but never enforces it: only
 * sco_banAddress refuses a client (docs/decisions.md#client-bans-and-reputation-sco_-bridge-state-module-list). Which RPC events count as which of rskj's
 * counters is decided in server/client-tracking.ts.
 */

/** rskj's counters, in the order PeerScoringInformation declares (and serializes) them. */
export const COUNTERS = [
  'successfulHandshakes',
  'failedHandshakes',
  'invalidNetworks',
  'repeatedMessages',
  'validBlocks',
  'validTransactions',
  'invalidBlocks',
  'invalidTransactions',
  'invalidMessages',
  'timeoutMessages',
  'unexpectedMessages',
  'invalidHeader',
] as const;

/** An event is named by the counter it increments. */
export type ClientEvent = (typeof COUNTERS)[number];

/**
 * Most client addresses tracked; the least recently active is forgotten first. A devnode sees a
 * handful of clients; 1,000 keeps a lab behind one NAT or a port scan visible while a flood of
 * spoofed sources cannot grow memory (about 200 bytes a record).
 */
export const MAX_TRACKED_CLIENTS = 1_000;

/** rskj reference.conf scoring.addresses: first punishment 12 minutes... */
export const PUNISHMENT_DURATION_MS = 12 * 60_000;
/** ...each later one 10 % longer... */
export const PUNISHMENT_INCREMENT_PERCENT = 10;
/** ...up to 6,000 minutes. */
export const PUNISHMENT_MAXIMUM_MS = 6_000 * 60_000;

/** rskj PeerScoringInformation, field for field (all ints; punishedUntil in ms). */
export interface PeerScoringInformation extends Record<ClientEvent, number> {
  score: number;
  punishments: number;
  goodReputation: boolean;
  punishedUntil: number;
  id: string;
  type: 'node' | 'address';
}

/** rskj PeerScoringReputationSummary, in its declaration order. */
export interface ReputationSummary {
  count: number;
  successfulHandshakes: number;
  failedHandshakes: number;
  invalidHeader: number;
  validBlocks: number;
  invalidBlocks: number;
  validTransactions: number;
  invalidTransactions: number;
  invalidNetworks: number;
  invalidMessages: number;
  repeatedMessages: number;
  timeoutMessages: number;
  unexpectedMessages: number;
  peersTotalScore: number;
  punishments: number;
  goodReputationCount: number;
  badReputationCount: number;
}

/** Events that reset a positive score and take one off (rskj PeerScoring.updateScoring). */
const BAD: ReadonlySet<ClientEvent> = new Set(['invalidNetworks', 'invalidBlocks', 'invalidTransactions', 'invalidMessages', 'invalidHeader']);
/** Events that add one to a non-negative score; the rest leave it alone. */
const GOOD: ReadonlySet<ClientEvent> = new Set(['validBlocks', 'validTransactions']);

/** One client's scoring (rskj PeerScoring with punishment enabled). */
class Scoring {
  readonly counters = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<ClientEvent, number>;
  score = 0;
  goodReputation = true;
  punishmentCounter = 0;
  private punishmentTime = 0;
  private timeLostGoodReputation = 0;

  get punishedUntil(): number {
    return this.punishmentTime + this.timeLostGoodReputation;
  }

  update(event: ClientEvent): void {
    this.counters[event]++;
    if (BAD.has(event)) {
      if (this.score > 0) this.score = 0;
      this.score--;
    } else if (GOOD.has(event) && this.score >= 0) {
      this.score++;
    }
  }

  /** rskj refreshReputationAndPunishment: an expired punishment ends and wipes the counters and score. */
  refresh(now: number): boolean {
    if (this.goodReputation) return true;
    if (this.punishmentTime > 0 && this.timeLostGoodReputation > 0 && this.punishedUntil <= now) {
      for (const c of COUNTERS) this.counters[c] = 0;
      this.goodReputation = true;
      this.punishmentTime = 0;
      this.timeLostGoodReputation = 0;
      this.score = 0;
    }
    return this.goodReputation;
  }

  startPunishment(duration: number, now: number): void {
    this.goodReputation = false;
    this.punishmentTime = duration;
    this.punishmentCounter++;
    this.timeLostGoodReputation = now;
  }
}

/** rskj ScoringCalculator.hasGoodScore: no invalid block, message or header yet. */
function hasGoodScore(s: Scoring): boolean {
  return s.counters.invalidBlocks < 1 && s.counters.invalidMessages < 1 && s.counters.invalidHeader < 1;
}

/** rskj PunishmentCalculator.calculate with the address parameters above. */
export function punishmentDuration(punishmentCounter: number, score: number): number {
  let result = PUNISHMENT_DURATION_MS;
  for (let i = 0; i < punishmentCounter; i++) {
    result = Math.floor((result * (100 + PUNISHMENT_INCREMENT_PERCENT)) / 100);
    if (result > PUNISHMENT_MAXIMUM_MS) return PUNISHMENT_MAXIMUM_MS;
  }
  if (score < 0) result *= -score;
  return Math.min(PUNISHMENT_MAXIMUM_MS, result);
}

export class ClientReputation {
  /** Address (rskj's text form) → scoring, least recently active first. */
  private readonly clients = new Map<string, Scoring>();
  /** The last key of `clients`, when known. */
  private newest: string | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.clients.size;
  }

  /** Records an event for a client address (as `clientAddressOf` gives it); rskj recordEventAndStartPunishment. */
  record(address: string, event: ClientEvent): void {
    let scoring = this.clients.get(address);
    // The most recently active client is last already: every request records, mostly the same client.
    if (scoring === undefined || address !== this.newest) {
      if (scoring === undefined) scoring = new Scoring();
      else this.clients.delete(address);
      this.clients.set(address, scoring);
      if (this.clients.size > MAX_TRACKED_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
      this.newest = address;
    }

    scoring.update(event);
    // The clock is read only when it decides something: a punishment to end or to start.
    if (scoring.goodReputation && hasGoodScore(scoring)) return;
    const now = this.now();
    if (!scoring.refresh(now)) return;
    if (!hasGoodScore(scoring)) scoring.startPunishment(punishmentDuration(scoring.punishmentCounter, scoring.score), now);
  }

  /** rskj sco_clearPeerScoring for an address: forgets it. */
  clear(address: string): void {
    this.clients.delete(address);
    if (address === this.newest) this.newest = undefined;
  }

  /** sco_peerList: one `address` entry per tracked client, least recently active first. */
  peerList(): PeerScoringInformation[] {
    const now = this.now();
    return [...this.clients].map(([id, s]) => {
      const goodReputation = s.refresh(now);
      return {
        ...s.counters,
        score: s.score,
        punishments: s.punishmentCounter,
        goodReputation,
        punishedUntil: s.punishedUntil,
        id,
        type: 'address' as const,
      };
    });
  }

  /** sco_reputationSummary: the peer list summed (rskj PeerScoringReporterUtil). */
  summary(): ReputationSummary {
    const peers = this.peerList();
    const sum = (pick: (p: PeerScoringInformation) => number) => peers.reduce((total, p) => total + pick(p), 0);
    return {
      count: peers.length,
      successfulHandshakes: sum((p) => p.successfulHandshakes),
      failedHandshakes: sum((p) => p.failedHandshakes),
      invalidHeader: sum((p) => p.invalidHeader),
      validBlocks: sum((p) => p.validBlocks),
      invalidBlocks: sum((p) => p.invalidBlocks),
      validTransactions: sum((p) => p.validTransactions),
      invalidTransactions: sum((p) => p.invalidTransactions),
      invalidNetworks: sum((p) => p.invalidNetworks),
      invalidMessages: sum((p) => p.invalidMessages),
      repeatedMessages: sum((p) => p.repeatedMessages),
      timeoutMessages: sum((p) => p.timeoutMessages),
      unexpectedMessages: sum((p) => p.unexpectedMessages),
      peersTotalScore: sum((p) => p.score),
      punishments: sum((p) => p.punishments),
      goodReputationCount: sum((p) => (p.goodReputation ? 1 : 0)),
      badReputationCount: sum((p) => (p.goodReputation ? 0 : 1)),
    };
  }
}
