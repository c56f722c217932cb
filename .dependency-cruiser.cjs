/**
 * The import rules of src/ (docs/architecture.md), checked by `npm test` (`npm run check:imports`):
 * - no import cycles, type-only and dynamic imports included;
 * - inside src/chain/, a folder imports only folders of lower tiers (and itself), and no folder
 *   imports the top-level files (the facade and the parts under the lock);
 * - outside src/chain/, code imports the chain only through src/chain/index.ts.
 * A violation fails with the rule's name, its comment and the offending import.
 */
/**
 * The folders of src/chain/ by tier, lowest first; src/util/ sits in tier 0 with base. bitcoin/
 * comes after base/ (docs/architecture.md's T0 "base/, bitcoin/", in import order): Bitcoin's
 * formats hash with base/bytes.ts.
 */
const TIERS = [
  ['base'],
  ['bitcoin'],
  ['records', 'evm', 'keys', 'console', 'btc-chain'],
  // fork: the remote state source and its cache, below state/'s tries (docs/architecture.md).
  ['storage', 'pool', 'fork'],
  ['state'],
  ['native'],
  ['exec'],
  ['mining', 'tracing'],
  ['merged-mining'],
  ['dump'],
  // federation: the node's PowPeg (the duties that send the federators' transactions), above what it drives.
  ['federation'],
];

const tierRules = TIERS.flatMap((folders, tier) => {
  const sameOrHigher = TIERS.slice(tier).flat();
  return folders.map((folder) => ({
    name: `chain-tier-${folder}`,
    comment: `src/chain/${folder}/ (tier ${tier}) may import only lower tiers: ${TIERS.slice(0, tier).flat().join(', ') || 'none'}, and src/util/`,
    severity: 'error',
    from: { path: `^src/chain/${folder}/` },
    to: {
      path: [`^src/chain/(${sameOrHigher.filter((f) => f !== folder).join('|')})/`, '^src/chain/[^/]+\\.ts$'],
    },
  }));
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle (type-only and dynamic imports count): break it with an interface in the lower module',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...tierRules,
    {
      name: 'chain-through-index',
      comment: 'Outside src/chain/, import the chain only through src/chain/index.ts (add the name to the barrel)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/chain/' },
      to: { path: '^src/chain/', pathNot: '^src/chain/index\\.ts$' },
    },
    {
      name: 'util-is-a-leaf',
      comment: 'src/util/ is shared by every layer and imports none of them',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/util/' },
    },
    {
      name: 'chain-knows-no-transport',
      comment: 'The chain knows nothing of HTTP, keys or JSON-RPC (docs/architecture.md): src/chain/ imports no other layer but src/util/',
      severity: 'error',
      from: { path: '^src/chain/' },
      to: { path: '^src/', pathNot: '^src/(chain|util)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    moduleSystems: ['es6'],
  },
};

// For test/unit/import-tiers-doc.test.ts (docs/architecture.md's table); not enumerable, so
// dependency-cruiser's own config check does not see it.
Object.defineProperty(module.exports, 'TIERS', { value: TIERS, enumerable: false });
