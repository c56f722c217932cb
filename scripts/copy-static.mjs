// tsc compiles only TypeScript: copy the dashboard's static files (src/gateway/static) to dist.
import { cpSync, rmSync } from 'node:fs';

const from = new URL('../src/gateway/static/', import.meta.url);
const to = new URL('../dist/gateway/static/', import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
