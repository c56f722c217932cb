#!/usr/bin/env node
// The bin (package.json "bin": dist/bin/rsk-devnode.js; scripts/build.mjs copies this file there,
// beside a package.json of `{"type":"commonjs"}`: as CommonJS it starts without Node's ES module
// loader, ~5 ms of CPU less):
// runs the bundled CLI, dist/bin/rsk-devnode.cjs, through a V8 code cache. Compiling the 1.8 MB
// bundle and the functions start-up runs was about a third of a cold start's CPU; with the cache V8
// reads them back instead (docs/performance.md, "Cold start: a V8 code cache"). Node 20 has no
// compile cache for ES modules (module.enableCompileCache came in 22.1), so the bundle is one
// CommonJS file compiled here with vm.Script, which takes and makes V8's cached data.
// The cache is dist/bin/rsk-devnode-<bundle id>-<node version>-<arch>-<flags>.v8-cache:
// - BUNDLE_ID (set by the build: a hash of the bundle) names it, and a cache older than the bundle
//   file is not used, so a changed bundle never runs another's code; a new build empties dist/bin/;
// - the file starts with a SHA-1 of the rest: V8 (Node 20, release build) checks a cache's version,
//   flags and source length but not its bytes, and a damaged cache crashed the process in V8's
//   deserializer; a cache whose digest does not match is not used;
// - V8 itself rejects a cache from another V8 version or flags (script.cachedDataRejected): the
//   start compiles from source as without a cache. <flags> is a hash of the process's Node and V8
//   flags (execArgv and NODE_OPTIONS), so a start with other flags (--cpu-prof, --trace-gc, a
//   heap size) keeps its own cache instead of replacing the one plain starts use;
// - when there is no usable cache, the CLI asks for one to be written once it has started
//   (src/code-cache.ts): to a temporary file renamed into place, so a reader never sees half a file;
//   if dist/bin/ cannot be written (a read-only install) every start compiles from source.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const BUNDLE_ID = '__BUNDLE_ID__';
const DIR = __dirname;
const BUNDLE = join(DIR, 'rsk-devnode.cjs');
const FLAGS_ID = createHash('sha1')
  .update(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']))
  .digest('hex')
  .slice(0, 8);
const CACHE = join(DIR, `rsk-devnode-${BUNDLE_ID}-${process.version}-${process.arch}-${FLAGS_ID}.v8-cache`);
/** SHA-1's length: the digest of the cached data that heads the file. */
const DIGEST_BYTES = 20;
/** Where src/code-cache.ts finds the save function. */
const SAVE_CODE_CACHE = Symbol.for('rsk-devnode.save-code-cache');

const digest = (data) => createHash('sha1').update(data).digest();

/** The cached data, or undefined when there is none, it is older than the bundle, or damaged. */
function readCache() {
  try {
    const cache = statSync(CACHE, { throwIfNoEntry: false });
    if (cache === undefined || cache.mtimeMs < statSync(BUNDLE).mtimeMs) return undefined;
    const file = readFileSync(CACHE);
    const data = file.subarray(DIGEST_BYTES);
    return digest(data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(script) {
  const temp = `${CACHE}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    writeFileSync(temp, Buffer.concat([digest(data), data]));
    renameSync(temp, CACHE);
  } catch {
    // A read-only install or a full disk: the next start compiles from source again.
    rmSync(temp, { force: true });
  }
}

const cachedData = readCache();
// CommonJS's module wrapper, strict as the ES modules the bundle was made from.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {'use strict';${readFileSync(BUNDLE, 'utf8')}\n})`, {
  filename: BUNDLE,
  cachedData,
});
if (cachedData === undefined || script.cachedDataRejected) globalThis[SAVE_CODE_CACHE] = () => writeCache(script);
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, createRequire(BUNDLE), bundleModule, BUNDLE, DIR);
