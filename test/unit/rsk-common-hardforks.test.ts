import { Common, Hardfork } from '@ethereumjs/common';
import { describe, expect, it } from 'vitest';
import { createRskCommon, rskTxOptions } from '../../src/chain/evm/rsk-common.js';

/** ethereumjs's own answers, from its prototype (what createRskCommon's instance methods replace). */
const original = {
  hardforks: (c: Common) => Common.prototype.hardforks.call(c),
  gte: (c: Common, a: string | null, b: string) => Common.prototype.hardforkGteHardfork.call(c, a, b),
};

describe('createRskCommon: hardforks built once (issue 25, a Set and two arrays per gteHardfork call)', () => {
  const common = createRskCommon(33, 'rsk-regtest');
  const names = [...original.hardforks(common).map((hf) => hf.name), 'no-such-fork'];

  it('lists the same hardforks as ethereumjs, the same array at every call', () => {
    expect(common.hardforks()).toEqual(original.hardforks(common));
    expect(common.hardforks()).toBe(common.hardforks());
  });

  it('answers hardforkGteHardfork and gteHardfork as ethereumjs does, for every pair of names and the set hardfork', () => {
    for (const a of [...names, null]) for (const b of names) expect(common.hardforkGteHardfork(a, b)).toBe(original.gte(common, a, b));
    expect(common.gteHardfork(Hardfork.Petersburg)).toBe(true);
    expect(common.gteHardfork(Hardfork.Istanbul)).toBe(false);
    expect(common.gteHardfork(Hardfork.SpuriousDragon)).toBe(true);
  });

  it("keeps each copy's own hardfork (copies share the list; transactions' Common is a copy)", () => {
    const copy = common.copy();
    copy.setHardfork(Hardfork.Byzantium);
    expect(copy.gteHardfork(Hardfork.Petersburg)).toBe(false);
    expect(copy.gteHardfork(Hardfork.Byzantium)).toBe(true);
    expect(common.gteHardfork(Hardfork.Petersburg)).toBe(true);
    const txCommon = rskTxOptions(common).common;
    for (const b of names) expect(txCommon.gteHardfork(b)).toBe(original.gte(txCommon, null, b));
  });
});
