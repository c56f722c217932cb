/**
 * One update of a Merkle Patricia trie from a block's sorted changes. ethereumjs' put and del
 * each rewrite the whole path from the root and store every node on it, so a block that changes
 * k keys stores the upper nodes k times, all but the last never referenced by any root (a third
 * of the nodes an ERC20 transfer's block wrote). This walks the existing trie once, down the
 * touched paths only, rebuilds them with the changes applied (deletes collapse branches and
 * extensions as the MPT requires) and answers the new root with exactly the nodes it built,
 * each once: every one is reachable from the new root. Untouched subtrees stay references.
 * The trie is canonical (one shape per key set), so the roots are @ethereumjs/mpt's:
 * test/unit/batch-update.test.ts holds them to it on random workloads.
 */
import { LeafMPTNode, type MPTNode } from '@ethereumjs/mpt';
import { RLP, type Input } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';
import { compareBytes } from '../base/bytes.js';
import { hexPrefix } from './ordered-trie.js';

/** A key's new value: `nibbles` is the whole path (the key as the trie files it, hashed or not); undefined deletes. */
export interface TrieChange {
  nibbles: Uint8Array;
  value: Uint8Array | undefined;
}

/** What a parent holds for a child: its hash, or the child's raw node when it is embedded. */
type Ref = Uint8Array | Uint8Array[];

/** How the update reads nodes and hashes new ones (the trie's own lookupNode and hash). */
export interface NodeSource {
  lookup(ref: Ref): Promise<MPTNode>;
  hash(encoded: Uint8Array): Uint8Array;
}

export interface TrieUpdate {
  root: Uint8Array;
  /** The nodes built, by hash (embedded ones are inside their parents). */
  nodes: Array<{ hash: Uint8Array; encoded: Uint8Array }>;
}

type Node =
  | { kind: 'leaf'; path: Uint8Array; value: Uint8Array }
  | { kind: 'extension'; path: Uint8Array; child: Node }
  | { kind: 'branch'; children: Array<Node | null>; value: Uint8Array | null }
  /** A subtree this update did not change, left as its parent referred to it. */
  | { kind: 'stored'; ref: Ref };

/** A node whose RLP is shorter than a hash is embedded in its parent, except the root. */
const HASH_LENGTH = 32;
const BRANCH_WIDTH = 16;
const EMPTY = new Uint8Array(0);

/**
 * The trie at `root` with `changes` applied. `changes` must be sorted by key and hold each key
 * once; `emptyRoot` is the root of the empty trie (what a trie emptied answers, writing nothing).
 */
export async function updateTrie(root: Uint8Array, emptyRoot: Uint8Array, changes: readonly TrieChange[], source: NodeSource): Promise<TrieUpdate> {
  const nodes: TrieUpdate['nodes'] = [];
  if (changes.length === 0) return { root, nodes };
  const before = equalsBytes(root, emptyRoot) ? null : await expand(root, source);
  const after = await update(before, changes, 0, changes.length, 0, source);
  if (after === before) return { root, nodes };
  if (after === null) return { root: emptyRoot, nodes };
  const encoded = RLP.encode(await rawOf(after as Exclude<Node, { kind: 'stored' }>, nodes, source));
  const hash = source.hash(encoded);
  nodes.push({ hash, encoded });
  return { root: hash, nodes };
}

/** The node a reference names, its children left as references. */
async function expand(ref: Ref, source: NodeSource): Promise<Node> {
  const node = await source.lookup(ref);
  const raw = node.raw() as Ref[];
  if (raw.length === BRANCH_WIDTH + 1) {
    const children = raw.slice(0, BRANCH_WIDTH).map((child): Node | null => (child === null || child.length === 0 ? null : { kind: 'stored', ref: child }));
    const value = raw[BRANCH_WIDTH] as Uint8Array | null;
    return { kind: 'branch', children, value: value === null || value.length === 0 ? null : value };
  }
  const path = Uint8Array.from((node as { key(): number[] }).key());
  const value = (node as { value(): Ref }).value();
  if (node instanceof LeafMPTNode) return { kind: 'leaf', path, value: value as Uint8Array };
  return { kind: 'extension', path, child: { kind: 'stored', ref: value } };
}

/**
 * `node` (at `depth` nibbles into the key) with changes[from, to) applied: they all share the
 * node's first `depth` nibbles. Answers `node` itself when nothing changed under it.
 */
async function update(node: Node | null, changes: readonly TrieChange[], from: number, to: number, depth: number, source: NodeSource): Promise<Node | null> {
  if (node === null) return build(puts(changes, from, to), depth);
  if (node.kind === 'stored') return update(await expand(node.ref, source), changes, from, to, depth, source);
  if (node.kind === 'leaf') return updateLeaf(node, changes, from, to, depth);
  if (node.kind === 'extension') return updateExtension(node, changes, from, to, depth, source);
  return updateBranch(node, changes, from, to, depth, source);
}

/** A leaf with changes: rebuilt from its entry and the changes when any of them does something. */
function updateLeaf(leaf: Node & { kind: 'leaf' }, changes: readonly TrieChange[], from: number, to: number, depth: number): Node | null {
  let ownChange: TrieChange | undefined;
  let changed = false;
  for (let i = from; i < to; i++) {
    const change = changes[i]!;
    if (matches(change.nibbles, depth, leaf.path) && change.nibbles.length === depth + leaf.path.length) {
      ownChange = change;
      changed ||= change.value === undefined || !equalsBytes(change.value, leaf.value);
    } else changed ||= change.value !== undefined;
  }
  if (!changed) return leaf;
  const entries = puts(changes, from, to);
  if (ownChange === undefined) {
    const nibbles = new Uint8Array(depth + leaf.path.length);
    nibbles.set(changes[from]!.nibbles.subarray(0, depth));
    nibbles.set(leaf.path, depth);
    entries.push({ nibbles, value: leaf.value });
    entries.sort((a, b) => compareBytes(a.nibbles, b.nibbles));
  }
  return build(entries, depth);
}

async function updateExtension(extension: Node & { kind: 'extension' }, changes: readonly TrieChange[], from: number, to: number, depth: number, source: NodeSource): Promise<Node | null> {
  const end = depth + extension.path.length;
  // Sorted changes: the ones under the extension are one run.
  let first = from;
  while (first < to && !matches(changes[first]!.nibbles, depth, extension.path)) first++;
  let last = first;
  while (last < to && matches(changes[last]!.nibbles, depth, extension.path)) last++;
  let divergingPut = false;
  for (let i = from; i < to; i++) if ((i < first || i >= last) && changes[i]!.value !== undefined) divergingPut = true;
  if (divergingPut) {
    // A key leaving the extension's path: the same subtree as a branch over its first nibble
    // (with the rest of the path below it), which the branch update collapses again as needed.
    const rest = extension.path.length === 1 ? extension.child : ({ kind: 'extension', path: extension.path.subarray(1), child: extension.child } as const);
    const children: Array<Node | null> = new Array(BRANCH_WIDTH).fill(null);
    children[extension.path[0]!] = rest;
    return updateBranch({ kind: 'branch', children, value: null }, changes, from, to, depth, source, true);
  }
  // Deletes of keys off the path delete nothing.
  if (first === last) return extension;
  const child = extension.child.kind === 'stored' ? await expand(extension.child.ref, source) : extension.child;
  const updated = await update(child, changes, first, last, end, source);
  if (updated === child) return extension;
  return prefixed(extension.path, updated);
}

/**
 * A branch with changes (`rebuilt`: a branch made here from an extension, never unchanged).
 * Each child is updated with its run of the changes, then the branch is made canonical: gone
 * when empty, a leaf when only its value is left, merged into its only child when it has no value.
 */
async function updateBranch(branch: Node & { kind: 'branch' }, changes: readonly TrieChange[], from: number, to: number, depth: number, source: NodeSource, rebuilt = false): Promise<Node | null> {
  const children = branch.children.slice();
  let value = branch.value;
  let changed = rebuilt;
  let i = from;
  // Keys are not all one length in general (RLP keys end inside the trie): one ending here is the branch's value.
  if (changes[i]!.nibbles.length === depth) {
    const next = changes[i]!.value ?? null;
    changed ||= next === null ? value !== null : value === null || !equalsBytes(next, value);
    value = next;
    i++;
  }
  while (i < to) {
    const nibble = changes[i]!.nibbles[depth]!;
    let end = i + 1;
    while (end < to && changes[end]!.nibbles[depth] === nibble) end++;
    const before = children[nibble]!;
    const current = before !== null && before.kind === 'stored' ? await expand(before.ref, source) : before;
    const after = await update(current, changes, i, end, depth + 1, source);
    if (after !== current) {
      children[nibble] = after;
      changed = true;
    }
    i = end;
  }
  if (!changed) return branch;
  let only = -1;
  let count = 0;
  for (let n = 0; n < BRANCH_WIDTH; n++) {
    if (children[n] === null) continue;
    count++;
    only = n;
  }
  if (count === 0) return value === null ? null : { kind: 'leaf', path: EMPTY, value };
  if (count > 1 || value !== null) return { kind: 'branch', children, value };
  const child = children[only]!;
  if (child.kind !== 'stored') return prefixed(Uint8Array.of(only), child);
  // An untouched child stays stored under the new extension when it is a branch; a leaf or an extension takes in the nibble.
  const expanded = await expand(child.ref, source);
  return expanded.kind === 'branch' ? { kind: 'extension', path: Uint8Array.of(only), child } : prefixed(Uint8Array.of(only), expanded);
}

/** `child` under `path`: a leaf or extension absorbs the path, a branch gets an extension above it. */
function prefixed(path: Uint8Array, child: Node | null): Node | null {
  if (child === null) return null;
  if (child.kind === 'leaf') return { kind: 'leaf', path: concat(path, child.path), value: child.value };
  if (child.kind === 'extension') return { kind: 'extension', path: concat(path, child.path), child: child.child };
  return { kind: 'extension', path, child };
}

/** The new subtree holding `entries` (sorted, sharing their first `depth` nibbles). */
function build(entries: TrieChange[], depth: number): Node | null {
  if (entries.length === 0) return null;
  if (entries.length === 1) return { kind: 'leaf', path: entries[0]!.nibbles.subarray(depth), value: entries[0]!.value! };
  const first = entries[0]!.nibbles;
  const last = entries[entries.length - 1]!.nibbles;
  let shared = 0;
  while (depth + shared < first.length && depth + shared < last.length && first[depth + shared] === last[depth + shared]) shared++;
  if (shared > 0) return { kind: 'extension', path: first.subarray(depth, depth + shared), child: build(entries, depth + shared)! };
  const children: Array<Node | null> = new Array(BRANCH_WIDTH).fill(null);
  let value: Uint8Array | null = null;
  let start = 0;
  if (first.length === depth) {
    value = entries[0]!.value!;
    start = 1;
  }
  while (start < entries.length) {
    const nibble = entries[start]!.nibbles[depth]!;
    let end = start + 1;
    while (end < entries.length && entries[end]!.nibbles[depth] === nibble) end++;
    children[nibble] = build(entries.slice(start, end), depth + 1);
    start = end;
  }
  return { kind: 'branch', children, value };
}

/** What the parent holds for `node`; new nodes of a hash's length or more are added to `nodes`. */
async function referenceTo(node: Node, nodes: TrieUpdate['nodes'], source: NodeSource): Promise<Input> {
  if (node.kind === 'stored') return node.ref;
  const raw = await rawOf(node, nodes, source);
  const encoded = RLP.encode(raw);
  if (encoded.length < HASH_LENGTH) return raw;
  const hash = source.hash(encoded);
  nodes.push({ hash, encoded });
  return hash;
}

async function rawOf(node: Exclude<Node, { kind: 'stored' }>, nodes: TrieUpdate['nodes'], source: NodeSource): Promise<Input[]> {
  if (node.kind === 'leaf') return [hexPrefix(node.path, true), node.value];
  if (node.kind === 'extension') return [hexPrefix(node.path, false), await referenceTo(node.child, nodes, source)];
  const raw: Input[] = [];
  for (const child of node.children) raw.push(child === null ? EMPTY : await referenceTo(child, nodes, source));
  raw.push(node.value ?? EMPTY);
  return raw;
}

/** The puts among changes[from, to), as entries. */
function puts(changes: readonly TrieChange[], from: number, to: number): TrieChange[] {
  const entries: TrieChange[] = [];
  for (let i = from; i < to; i++) if (changes[i]!.value !== undefined) entries.push(changes[i]!);
  return entries;
}

/** Whether `nibbles` continues with `path` at `depth`. */
function matches(nibbles: Uint8Array, depth: number, path: Uint8Array): boolean {
  if (nibbles.length < depth + path.length) return false;
  for (let i = 0; i < path.length; i++) if (nibbles[depth + i] !== path[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
