// Builds dist/ from src/ (`npm run build`, and `prepare` after `npm ci`/`npm install`):
// 1. tsc -p tsconfig.build.json, incremental: its tsBuildInfo is dist/.tsbuildinfo, so an edit
//    recompiles in about half the time of a full build, and deleting dist/ starts from scratch;
// 2. scripts/copy-static.mjs copies the dashboard's static files;
// 3. esbuild bundles dist/cli.js into one CommonJS file, dist/bin/rsk-devnode.cjs, and the bin,
//    dist/bin/rsk-devnode.js (scripts/bin-loader.cjs), runs it through a V8 code cache: Node starts
//    the bundle in about half the time of dist/'s hundreds of modules, and the cache saves most of
//    compiling it (dist/*.js stays the library: package.json main/exports and types); the new bin
//    is started once, so its cache is there before the first real start;
// 4. dist/.build-stamp records when this build began.
// scripts/start.mjs compares the stamp with the newest mtime of the build's inputs (isCurrent) and
// skips all this when nothing changed: a stat walk of src/ takes milliseconds, while even a no-change
// `tsc --incremental` or `tsc --build` must load the compiler (1.5-5 s on a 2-core machine).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const TSBUILDINFO = join(DIST, '.tsbuildinfo');
const ENTRY = join(DIST, 'cli.js');
const BIN_DIR = join(DIST, 'bin');
/** package.json "bin" points here: scripts/bin-loader.cjs, which runs BUNDLE through a code cache. */
export const BIN = join(BIN_DIR, 'rsk-devnode.js');
/** The CLI bundled into one CommonJS file (a code cache is made per script, so one script). */
const BUNDLE = join(BIN_DIR, 'rsk-devnode.cjs');
const LOADER = join(ROOT, 'scripts', 'bin-loader.cjs');
/**
 * dist/bin/package.json: makes the bin (a .js file, as the bench and users start it) CommonJS inside
 * this "type": "module" package. It has no name, so src/package-paths.ts keeps looking above it.
 */
const BIN_PACKAGE_JSON = '{ "type": "commonjs" }\n';
/**
 * How long the priming start may take before the build gives up on it (a loaded 2-core machine
 * starts the bin in well under a second; the save follows src/code-cache.ts's 1 s delay).
 */
const PRIME_TIMEOUT_MS = 30_000;
/** The loader's placeholder for the bundle's hash, which names its code cache. */
const BUNDLE_ID_PLACEHOLDER = '__BUNDLE_ID__';
/**
 * Left out of the bundle, imported from node_modules at run time: the native secp256k1 binding, which
 * locates its .node file from its own folder, and Express and ws, which load only on first use
 * (src/server/lazy.ts) and require optional modules by name. level and classic-level are bundled
 * (their JavaScript shares abstract-level with memory-level, already in the bundle, and loading them
 * from node_modules cost about 15 ms of a cold start in file lookups); only classic-level's
 * binding.js stays outside (NATIVE_BINDINGS), since it finds its .node file from its own folder.
 */
const BUNDLE_EXTERNALS = ['secp256k1', 'express', 'ws'];
/** Relative requires of native bindings inside bundled packages, kept as requires of the package's file. */
const NATIVE_BINDINGS = [{ pkg: 'classic-level', request: /^\.\/binding(\.js)?$/, file: 'classic-level/binding.js' }];
/** esbuild plugin: each NATIVE_BINDINGS request becomes an external require of the package's own file. */
const nativeBindings = {
  name: 'native-bindings',
  setup(build) {
    for (const { pkg, request, file } of NATIVE_BINDINGS) {
      build.onResolve({ filter: request }, (args) =>
        args.importer.split(sep).includes(pkg) ? { path: file, external: true } : undefined,
      );
    }
  },
};
/**
 * `level` is one line of CommonJS (`exports.Level = ClassicLevel`). esbuild gives a dynamic import()
 * of a CommonJS module only its default export, where Node also finds `Level`: the sources'
 * `(await import('level')).Level` gets it from this ES module instead.
 */
const levelAsEsm = {
  name: 'level-as-esm',
  setup(build) {
    build.onResolve({ filter: /^level$/ }, () => ({ path: 'level', namespace: 'level-as-esm' }));
    build.onLoad({ filter: /.*/, namespace: 'level-as-esm' }, () => ({
      contents: "export { ClassicLevel as Level } from 'classic-level';",
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
};
/**
 * Whitespace and syntax are minified (names are kept, so stack traces still name functions): V8
 * compiles every chunk loaded at start-up, and a smaller source cut about 10 ms of CPU from a cold
 * start (docs/performance.md, "Cold start and the young generation cap").
 */
const MINIFY = { minifyWhitespace: true, minifySyntax: true };
/**
 * The sources' `import.meta.url` (createRequire and package-paths.ts find files from it) is the
 * bundle's own URL, as it was the chunk's in the ES module bundle.
 */
const IMPORT_META_URL = '__rskDevnodeImportMetaUrl';
const IMPORT_META_BANNER = `var ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`;

/** Files whose change calls for a new build, besides everything under src/. */
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs', 'scripts/bin-loader.cjs', 'scripts/copy-static.mjs'];

/**
 * The newest mtime (ms) among the build's inputs. Folders count too: adding, removing or renaming a
 * file changes its folder's mtime, so a deleted source also triggers a build.
 */
export function newestInputMtime() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(join(ROOT, 'src'));
  for (const file of INPUT_FILES) visit(join(ROOT, file));
  return newest;
}

/** Whether dist/ was built from the sources as they are now. */
export function isCurrent() {
  const stamp = statSync(STAMP, { throwIfNoEntry: false });
  return stamp !== undefined && existsSync(ENTRY) && existsSync(BIN) && stamp.mtimeMs >= newestInputMtime();
}

/** Builds dist/; returns the exit code (tsc's on failure), and writes the stamp only on success. */
export async function build() {
  const began = Date.now() / 1000;
  // Incremental tsc does not re-emit files that vanished from dist/ while its tsBuildInfo stayed.
  if (!existsSync(ENTRY)) rmSync(TSBUILDINFO, { force: true });
  rmSync(STAMP, { force: true });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  await import(pathToFileURL(join(ROOT, 'scripts', 'copy-static.mjs')).href);
  // esbuild has printed its errors; the stamp stays away, so the next start tries again.
  if (!(await bundle().then(() => true, () => false))) return 1;
  await primeCodeCache();
  // The stamp carries the time the build began: a source saved while tsc ran is newer than it,
  // so the next start builds again.
  writeFileSync(STAMP, `built from the sources as of ${new Date(began * 1000).toISOString()}\n`);
  utimesSync(STAMP, began, began);
  return 0;
}

/**
 * dist/bin/: the CLI bundled from dist/cli.js into one CommonJS file, and the loader as the bin; the
 * files of an earlier bundle (its code caches too) are removed first. The sources' dynamic import()s
 * become require()s (`dynamic-import: false`): the loader's vm.Script has no ES module loader.
 */
async function bundle() {
  const esbuild = await import('esbuild');
  rmSync(BIN_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    external: BUNDLE_EXTERNALS,
    plugins: [nativeBindings, levelAsEsm],
    ...MINIFY,
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: IMPORT_META_BANNER },
    logLevel: 'warning',
  });
  // The loader wraps the bundle in a function: cli.ts's `#!` line would not parse there.
  const code = readFileSync(BUNDLE, 'utf8').replace(/^#!.*\n/, '');
  writeFileSync(BUNDLE, code);
  const id = createHash('sha256').update(code).digest('hex').slice(0, 16);
  writeFileSync(join(BIN_DIR, 'package.json'), BIN_PACKAGE_JSON);
  writeFileSync(BIN, readFileSync(LOADER, 'utf8').replace(BUNDLE_ID_PLACEHOLDER, id), { mode: 0o755 });
}

/**
 * Starts the new bin once (--in-memory, an ephemeral port), asks it one eth_blockNumber, and stops it
 * once it has written its code cache: a start that is stopped right after its first answer (a
 * benchmark's cold start, a test's) never lives long enough to write one itself. Without it (a
 * timeout, a failed start) the build still succeeds and the first long-lived start writes the cache.
 */
async function primeCodeCache() {
  const child = spawn(process.execPath, [BIN, '--in-memory', '--port', '0', '--keyless-network', 'testnet', '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + PRIME_TIMEOUT_MS;
  const cached = () => readdirSync(BIN_DIR).some((name) => name.endsWith('.v8-cache'));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
  try {
    let asked = false;
    while (!cached() && Date.now() < deadline && child.exitCode === null) {
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined && !asked) {
        asked = true;
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' }).catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!cached()) process.stderr.write('build: the bin wrote no code cache; its first long-lived start will\n');
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

if (process.argv[1] && realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1])) {
  process.exitCode = await build();
}
