import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { setV8Flag, withStartFlags } from '../../src/v8-flags.js';

let sources = 0;
/**
 * A new source of the same length each time: V8 answers a source it compiled before from its
 * in-process compilation cache without looking at the cached data, and checks only the source's
 * length against the cache's.
 */
const source = () => `function add(a, b) { return a + b; } add(1, 2); // ${String(sources++).padStart(4, '0')}`;
const cacheOf = () => new Script(source()).createCachedData();
const rejected = (cachedData: Buffer) => new Script(source(), { cachedData }).cachedDataRejected;
/** V8's default for the flag the test changes (`node --v8-options`). */
const INLINING_DEFAULT = 920;

afterAll(() => setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_DEFAULT}`));

describe('withStartFlags (the code cache is made under the flags the process started with)', () => {
  it('a code cache made inside it is accepted under the start flags; one made after a change is not', () => {
    const cacheUnderStartFlags = cacheOf();
    setV8Flag('--max-inlined-bytecode-size-cumulative=460', `--max-inlined-bytecode-size-cumulative=${INLINING_DEFAULT}`);

    // V8 stamps the cache with its flags: one made now is for a process with the changed flag.
    const cacheAfterChange = cacheOf();
    expect(withStartFlags(() => rejected(cacheAfterChange))).toBe(true);
    expect(rejected(cacheUnderStartFlags)).toBe(true);
    expect(withStartFlags(() => rejected(cacheUnderStartFlags))).toBe(false);

    const cacheMadeInside = withStartFlags(cacheOf);
    setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_DEFAULT}`);
    expect(rejected(cacheMadeInside)).toBe(false);
    setFlagsFromString('--max-inlined-bytecode-size-cumulative=460');

    // and the changed setting is back after it
    expect(rejected(cacheAfterChange)).toBe(false);
  });
});
