// `npm start`: builds dist/ only when a source changed since the last build (scripts/build.mjs),
// then runs the bin (the CLI's bundle, dist/bin/rsk-devnode.js) in this same process (no second
// Node start-up). Flags pass through:
// `npm start -- --in-memory`.
// package.json starts it with --max-semi-space-size=8 (MiB): V8's young generation otherwise grows
// to 3 × 16 MiB under a stream of transactions, and stays resident; capped, the node's RSS after
// 2,000 one-transfer blocks is 10-18 MiB lower for the same CPU time (scripts/profile-rss.ts).
// V8 reads the flag only at start-up, so it cannot be set from here.
import { pathToFileURL } from 'node:url';
import { BIN, build, isCurrent } from './build.mjs';

if (!isCurrent()) {
  process.stderr.write('rsk-devnode: sources changed since the last build, compiling dist/ ...\n');
  const code = await build();
  if (code !== 0) {
    process.stderr.write('rsk-devnode: the build failed (see above); not starting.\n');
    process.exit(code);
  }
}
await import(pathToFileURL(BIN).href);
