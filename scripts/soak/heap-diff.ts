/** Compares two V8 heap snapshots (.heapsnapshot): self size and count per (type, constructor name). */
import { readFileSync } from 'node:fs';

export interface HeapGroup {
  key: string;
  count: number;
  bytes: number;
}

export function heapGroups(file: string): Map<string, HeapGroup> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  for (let i = 0; i < snapshot.nodes.length; i += stride) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    // Strings and code are grouped by type only: their "names" are their contents.
    const name = type === 'object' || type === 'native' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]!]! : '';
    const key = `${type} ${name.slice(0, 60)}`;
    const group = groups.get(key) ?? { key, count: 0, bytes: 0 };
    group.count++;
    group.bytes += snapshot.nodes[i + sizeAt]!;
    groups.set(key, group);
  }
  return groups;
}

/** The groups that grew most between two snapshots, largest growth first. */
export function heapGrowth(before: string, after: string, top = 15): Array<{ key: string; count: number; bytes: number }> {
  const a = heapGroups(before);
  const b = heapGroups(after);
  return [...b.values()]
    .map((g) => ({ key: g.key, count: g.count - (a.get(g.key)?.count ?? 0), bytes: g.bytes - (a.get(g.key)?.bytes ?? 0) }))
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
}
