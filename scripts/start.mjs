// `npm start`: builds dist/ only when a source changed since the last build (scripts/build.mjs),
// then runs the bin (the CLI's bundle, dist/bin/rsk-devnode.js) in this same process (no second
// Node start-up). Flags pass through:
// `npm start -- --in-memory`.
// V8's young generation is capped by the CLI itself (src/young-generation.ts), so the node runs the
// same whether started here, through the bin's shebang or as `node dist/bin/rsk-devnode.js`.
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
