/**
 * docs/architecture.md's tier table is the TIERS list that .dependency-cruiser.cjs enforces
 * (npm run check:imports): this fails when one changes without the other.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { TIERS } = require('../../.dependency-cruiser.cjs') as { TIERS: string[][] };

describe('docs/architecture.md tier table', () => {
  it('lists the folders of each tier as .dependency-cruiser.cjs does', () => {
    const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| T(\d+) \| (.+) \|$/gm)].map((m) => [...m[2]!.matchAll(/`([a-z-]+)\/`/g)].map((f) => f[1]));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows, 'docs/architecture.md: update the tier table to the TIERS of .dependency-cruiser.cjs').toEqual(TIERS);
  });
});
