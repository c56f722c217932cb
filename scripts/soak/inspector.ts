/**
 * A minimal Chrome DevTools Protocol client for a node started with `--inspect=127.0.0.1:0`: the
 * memory probes (bench-memory.ts, the soak's --probe) ask the node itself for its heap figures.
 */
import WebSocket from 'ws';

/** The node's process.memoryUsage() as the probes read it. */
export const MEMORY_USAGE_EXPRESSION =
  '(() => { const m = process.memoryUsage(); return { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers }; })()';

export interface MemoryUsage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Connects to the inspector whose URL the node printed in `output`. */
export async function inspector(output: string) {
  const match = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(output);
  if (match === null) throw new Error(`no inspector URL in the node's output:\n${output.slice(0, 2000)}`);
  const ws = new WebSocket(match[0], { maxPayload: 2 ** 31 - 1 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  const listeners: Array<(msg: { method: string; params: Record<string, unknown> }) => void> = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown; method?: string; params?: Record<string, unknown> };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.error !== undefined ? Promise.reject(new Error(JSON.stringify(msg.error))) : msg.result);
    else for (const l of listeners) l(msg as { method: string; params: Record<string, unknown> });
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve as (r: unknown) => void);
      ws.send(JSON.stringify({ id, method, params }));
    });
  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await send<{ result: { value: T } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    return r.result.value;
  };
  const memoryUsage = () => evaluate<MemoryUsage>(MEMORY_USAGE_EXPRESSION);
  return { send, evaluate, memoryUsage, on: (l: (typeof listeners)[number]) => listeners.push(l), close: () => ws.close() };
}

type Inspector = Awaited<ReturnType<typeof inspector>>;

/** A heap snapshot of the node (taken after a full GC), grouped by type and constructor, largest first. */
export async function heapSummary(cdp: Inspector, top: number): Promise<Array<{ key: string; count: number; bytes: number }>> {
  const chunks: string[] = [];
  cdp.on((msg) => {
    if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(msg.params.chunk as string);
  });
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  const snapshot = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const groups = new Map<string, { key: string; count: number; bytes: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    // Strings and code are grouped by type only: their "names" are their contents.
    const name = type === 'object' || type === 'native' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 50) : '';
    const key = `${type} ${name}`;
    const g = groups.get(key) ?? { key, count: 0, bytes: 0 };
    g.count++;
    g.bytes += snapshot.nodes[i + sizeAt]!;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
}
