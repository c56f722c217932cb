/** rskj's peer scoring applied to RPC clients: scores, punishments, their expiry, and the bounded record. */
import { describe, expect, it } from 'vitest';
import {
  ClientReputation,
  MAX_TRACKED_CLIENTS,
  PUNISHMENT_DURATION_MS,
  PUNISHMENT_MAXIMUM_MS,
  punishmentDuration,
} from '../../src/gateway/client-reputation.js';

describe('punishmentDuration (rskj PunishmentCalculator, address parameters)', () => {
  it('starts at 12 minutes, grows 10 % per earlier punishment, multiplies by a negative score, caps at 6,000 minutes', () => {
    expect(PUNISHMENT_DURATION_MS).toBe(720_000);
    expect(punishmentDuration(0, 0)).toBe(720_000);
    expect(punishmentDuration(0, -1)).toBe(720_000);
    expect(punishmentDuration(0, -3)).toBe(2_160_000);
    expect(punishmentDuration(1, 0)).toBe(792_000);
    expect(punishmentDuration(2, -2)).toBe(2 * 871_200);
    expect(punishmentDuration(100, 0)).toBe(PUNISHMENT_MAXIMUM_MS);
    expect(punishmentDuration(0, -1_000)).toBe(PUNISHMENT_MAXIMUM_MS);
  });
});

describe('ClientReputation', () => {
  it('scores like rskj PeerScoring and punishes on the first invalid message, until it expires', () => {
    let now = 1_000_000;
    const rep = new ClientReputation(() => now);
    rep.record('10.0.0.1', 'validTransactions');
    rep.record('10.0.0.1', 'validTransactions');
    rep.record('10.0.0.1', 'unexpectedMessages');
    expect(rep.peerList()[0]).toMatchObject({ validTransactions: 2, unexpectedMessages: 1, score: 2, punishments: 0, goodReputation: true, punishedUntil: 0 });
    rep.record('10.0.0.1', 'invalidTransactions'); // score 2 → 0 → -1; invalid transactions do not punish
    expect(rep.peerList()[0]).toMatchObject({ score: -1, goodReputation: true, punishments: 0 });
    rep.record('10.0.0.1', 'invalidMessages'); // score -2: punished for 12 min × 2
    const punished = rep.peerList()[0]!;
    expect(punished).toMatchObject({ invalidMessages: 1, score: -2, punishments: 1, goodReputation: false, punishedUntil: 1_000_000 + 2 * 720_000 });
    rep.record('10.0.0.1', 'invalidMessages'); // already punished: counted, no new punishment
    expect(rep.peerList()[0]).toMatchObject({ invalidMessages: 2, score: -3, punishments: 1, punishedUntil: punished.punishedUntil });
    now = punished.punishedUntil;
    // The punishment ends: counters and score wiped, the punishment count kept.
    expect(rep.peerList()[0]).toEqual({
      successfulHandshakes: 0, failedHandshakes: 0, invalidNetworks: 0, repeatedMessages: 0, validBlocks: 0, validTransactions: 0,
      invalidBlocks: 0, invalidTransactions: 0, invalidMessages: 0, timeoutMessages: 0, unexpectedMessages: 0, invalidHeader: 0,
      score: 0, punishments: 1, goodReputation: true, punishedUntil: 0, id: '10.0.0.1', type: 'address',
    });
    rep.record('10.0.0.1', 'invalidBlocks'); // second punishment: 12 min + 10 %
    expect(rep.peerList()[0]).toMatchObject({ punishments: 2, score: -1, punishedUntil: now + 792_000 });
  });

  it(`keeps at most MAX_TRACKED_CLIENTS (${MAX_TRACKED_CLIENTS}) addresses, forgetting the least recently active`, () => {
    const rep = new ClientReputation(() => 0);
    rep.record('10.0.0.0', 'successfulHandshakes');
    for (let i = 1; i < MAX_TRACKED_CLIENTS + 250; i++) {
      rep.record(`10.0.${i >> 8}.${i & 255}`, 'successfulHandshakes');
      if (i % 100 === 0) rep.record('10.0.0.0', 'successfulHandshakes'); // keeps the first one recent
    }
    expect(rep.size).toBe(MAX_TRACKED_CLIENTS);
    const ids = rep.peerList().map((p) => p.id);
    expect(ids).toHaveLength(MAX_TRACKED_CLIENTS);
    expect(ids).toContain('10.0.0.0');
    expect(ids).not.toContain('10.0.0.1');
    expect(ids.at(-1)).toBe(`10.0.${(MAX_TRACKED_CLIENTS + 249) >> 8}.${(MAX_TRACKED_CLIENTS + 249) & 255}`);
    expect(rep.summary().count).toBe(MAX_TRACKED_CLIENTS);
  });

  it('keeps clients in order of activity when the most recent one records again, and after it was cleared', () => {
    const rep = new ClientReputation(() => 0);
    rep.record('10.0.0.1', 'successfulHandshakes');
    rep.record('10.0.0.2', 'successfulHandshakes');
    rep.record('10.0.0.2', 'successfulHandshakes');
    rep.record('10.0.0.1', 'successfulHandshakes');
    rep.record('10.0.0.1', 'successfulHandshakes');
    expect(rep.peerList().map((p) => [p.id, p.successfulHandshakes])).toEqual([
      ['10.0.0.2', 2],
      ['10.0.0.1', 3],
    ]);
    // The newest cleared, then recorded again: a new record, last in the list.
    rep.clear('10.0.0.1');
    rep.record('10.0.0.3', 'successfulHandshakes');
    rep.record('10.0.0.1', 'successfulHandshakes');
    expect(rep.peerList().map((p) => [p.id, p.successfulHandshakes])).toEqual([
      ['10.0.0.2', 2],
      ['10.0.0.3', 1],
      ['10.0.0.1', 1],
    ]);
  });

  it('starts a punishment at the clock of the event that earned it, and reads no clock for events that decide nothing', () => {
    let reads = 0;
    const rep = new ClientReputation(() => {
      reads++;
      return 5_000;
    });
    rep.record('10.0.0.1', 'successfulHandshakes');
    rep.record('10.0.0.1', 'validTransactions');
    expect(reads).toBe(0);
    rep.record('10.0.0.1', 'invalidMessages');
    expect(reads).toBe(1);
    expect(rep.peerList()[0]).toMatchObject({ goodReputation: false, punishedUntil: 5_000 + PUNISHMENT_DURATION_MS });
  });
});
