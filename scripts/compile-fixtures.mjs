#!/usr/bin/env node
// Compiles the Solidity test fixtures in test/fixtures/contracts/*.sol with the
// solc-js compiler from node_modules and writes test/fixtures/contracts.json:
//
//   { "<ContractName>": { "abi": [...], "bytecode": "0x...", "deployedBytecode": "0x..." } }
//
// Settings: optimizer enabled (200 runs), evmVersion "cancun" (RSK supports PUSH0,
// MCOPY, TLOAD/TSTORE, CHAINID, SELFBALANCE, BASEFEE; the fixtures must not use
// blobhash/blobbasefee/prevrandao). Output is deterministic: keys are sorted and the
// file is pretty-printed with 2 spaces and a trailing newline, so re-running it on
// unchanged sources produces an identical file.
//
// Run with:  npm run fixtures     (or: node scripts/compile-fixtures.mjs)
//
// Exits with code 1 and prints the compiler errors if compilation fails.
// Warnings are printed but do not fail the build.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(root, 'test', 'fixtures', 'contracts');
const outFile = join(root, 'test', 'fixtures', 'contracts.json');

function fail(message) {
  console.error(`compile-fixtures: ${message}`);
  process.exit(1);
}

/** Recursively sorts object keys so JSON.stringify output is stable. */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

let files;
try {
  files = readdirSync(contractsDir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
} catch (err) {
  fail(`cannot read ${contractsDir}: ${err.message}`);
}
if (files.length === 0) fail(`no .sol files found in ${contractsDir}`);

const sources = {};
for (const file of files) {
  sources[file] = { content: readFileSync(join(contractsDir, file), 'utf8') };
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: {
      '*': {
        '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'],
      },
    },
  },
};

/** Imports from packages (`hardhat/console.sol`), read from node_modules. */
function findImports(path) {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch (err) {
    return { error: `cannot import ${path}: ${err.message}` };
  }
}

console.log(`compile-fixtures: solc ${solc.version()}, ${files.length} source file(s)`);

let output;
try {
  output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
} catch (err) {
  fail(`solc crashed: ${err.message}`);
}

const diagnostics = output.errors ?? [];
const errors = diagnostics.filter((d) => d.severity === 'error');
for (const d of diagnostics.filter((d) => d.severity !== 'error')) {
  console.warn((d.formattedMessage ?? d.message).trimEnd());
}
if (errors.length > 0) {
  for (const e of errors) console.error((e.formattedMessage ?? e.message).trimEnd());
  fail(`compilation failed with ${errors.length} error(s)`);
}

const result = {};
for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
  for (const [name, artifact] of Object.entries(contracts)) {
    if (result[name]) fail(`duplicate contract name "${name}" (in ${sourceName})`);
    const bytecode = artifact.evm?.bytecode?.object;
    const deployedBytecode = artifact.evm?.deployedBytecode?.object;
    if (typeof bytecode !== 'string' || typeof deployedBytecode !== 'string') {
      fail(`missing bytecode for ${sourceName}:${name}`);
    }
    if (bytecode.includes('__')) fail(`${sourceName}:${name} has unlinked library references`);
    result[name] = {
      abi: artifact.abi,
      bytecode: `0x${bytecode}`,
      deployedBytecode: `0x${deployedBytecode}`,
    };
  }
}
if (Object.keys(result).length === 0) fail('compiler produced no contracts');

writeFileSync(outFile, `${JSON.stringify(sortKeys(result), null, 2)}\n`);

for (const name of Object.keys(result).sort()) {
  const size = (result[name].deployedBytecode.length - 2) / 2;
  console.log(`  ${name}: ${size} bytes deployed`);
}
console.log(`compile-fixtures: wrote ${relative(root, outFile)}`);
