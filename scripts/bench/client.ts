/**
 * The bench's HTTP client: raw keep-alive TCP sockets (node:net), one request in flight per
 * connection, requests written as one pre-built HTTP/1.1 string, responses framed by
 * Content-Length (or chunked, which no measured node sends today) without a header object or a
 * JSON parse. node:http through an Agent topped out near 25k requests a second on a 2-core
 * machine (issue 25), below what anvil answers: this client costs a few µs a request, so the
 * node, not the client, sets the pace. The calibration row (bare-server.mjs) shows its ceiling.
 */
import net from 'node:net';

/** A node that holds a request open this long fails that workload instead of stalling the run. */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface HttpResponse {
  status: number;
  body: Buffer;
  /** The server said `Connection: close`: the socket is not reused. */
  close: boolean;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** The head of a response being read, once its header block is complete. */
interface Head {
  status: number;
  close: boolean;
  /** Where the body starts in the pending bytes. */
  bodyAt: number;
  /** The body's length; undefined for a chunked body. */
  length: number | undefined;
}

/**
 * Splits a byte stream into HTTP/1.1 responses: a response may arrive in many chunks, and one
 * chunk may hold several responses (pipelined) or the end of one and the start of the next.
 */
export class ResponseParser {
  private pending: Buffer = Buffer.alloc(0);
  /** Chunks received since `pending` was last joined (joined only when a frame may be complete). */
  private parts: Buffer[] = [];
  private partsLength = 0;
  private head: Head | undefined;

  /** Bytes received and not yet part of a complete response. */
  get buffered(): number {
    return this.pending.length + this.partsLength;
  }

  push(chunk: Buffer): HttpResponse[] {
    this.parts.push(chunk);
    this.partsLength += chunk.length;
    // A large body arrives in many chunks: join them only once enough bytes are there.
    if (this.head?.length !== undefined && this.pending.length + this.partsLength < this.head.bodyAt + this.head.length) return [];
    this.pending = this.pending.length === 0 && this.parts.length === 1 ? chunk : Buffer.concat([this.pending, ...this.parts]);
    this.parts = [];
    this.partsLength = 0;
    const out: HttpResponse[] = [];
    for (;;) {
      const response = this.next();
      if (response === undefined) return out;
      out.push(response);
    }
  }

  private next(): HttpResponse | undefined {
    if (this.head === undefined) {
      const end = this.pending.indexOf(HEADER_END);
      if (end < 0) return undefined;
      this.head = parseHead(this.pending.toString('latin1', 0, end), end + HEADER_END.length);
    }
    const head = this.head;
    let body: Buffer;
    let rest: number;
    if (head.length !== undefined) {
      rest = head.bodyAt + head.length;
      if (this.pending.length < rest) return undefined;
      body = this.pending.subarray(head.bodyAt, rest);
    } else {
      const chunked = dechunk(this.pending, head.bodyAt);
      if (chunked === undefined) return undefined;
      ({ body, rest } = chunked);
    }
    this.pending = this.pending.subarray(rest);
    this.head = undefined;
    return { status: head.status, body, close: head.close };
  }
}

function parseHead(text: string, bodyAt: number): Head {
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (status === null) throw new Error(`not an HTTP/1.1 response: ${JSON.stringify(text.slice(0, 80))}`);
  const lower = text.toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  const chunked = /\r\ntransfer-encoding:[^\r]*chunked/.test(lower);
  if (length === null && !chunked) throw new Error('a response with neither Content-Length nor chunked encoding');
  return {
    status: Number(status[1]),
    close: /\r\nconnection:\s*close/.test(lower) || text.startsWith('HTTP/1.0'),
    bodyAt,
    length: chunked ? undefined : Number(length![1]),
  };
}

/** A complete chunked body from `at`, or undefined while its last chunk has not arrived. */
function dechunk(bytes: Buffer, at: number): { body: Buffer; rest: number } | undefined {
  const chunks: Buffer[] = [];
  let pos = at;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, pos);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.toString('latin1', pos, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size');
    const dataAt = lineEnd + CRLF.length;
    if (size === 0) {
      // No trailers are expected: the body ends with the empty line after the last chunk.
      if (bytes.length < dataAt + CRLF.length) return undefined;
      return { body: Buffer.concat(chunks), rest: dataAt + CRLF.length };
    }
    if (bytes.length < dataAt + size + CRLF.length) return undefined;
    chunks.push(bytes.subarray(dataAt, dataAt + size));
    pos = dataAt + size + CRLF.length;
  }
}

/** The request line and headers for a JSON-RPC POST; the body's length is added per request. */
export function requestHead(url: URL): string {
  return `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: `;
}

/** One HTTP/1.1 request as a single string (the JSON-RPC body is ASCII: length in bytes = chars). */
export function requestText(head: string, body: string): string {
  return `${head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

interface InFlight {
  resolve: (r: HttpResponse) => void;
  reject: (e: Error) => void;
  text: string;
  /** Whether the request went out on a socket that had answered before (may be closed by now). */
  reused: boolean;
}

/**
 * One keep-alive connection, one request at a time. The socket opens on the first request and
 * again after the server closed it. A request on a reused socket that the server closed before
 * answering (its idle timeout racing the write) is sent once more on a new socket, as Node's
 * http Agent advises; any other close with a request in flight fails that request.
 */
export class Connection {
  private socket: net.Socket | undefined;
  private parser = new ResponseParser();
  private inFlight: InFlight | undefined;
  private answered = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  send(text: string): Promise<HttpResponse> {
    if (this.inFlight !== undefined) return Promise.reject(new Error('a request is already in flight on this connection'));
    return new Promise((resolve, reject) => {
      this.inFlight = { resolve, reject, text, reused: false };
      this.write();
    });
  }

  /** Closes the socket; a request still in flight fails. */
  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
    const request = this.inFlight;
    this.inFlight = undefined;
    request?.reject(new Error('the connection was closed by the bench'));
  }

  private write(): void {
    const request = this.inFlight!;
    if (this.socket === undefined) this.open();
    request.reused = this.answered;
    this.socket!.write(request.text, 'latin1');
  }

  private open(): void {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    this.parser = new ResponseParser();
    this.answered = false;
    socket.setTimeout(REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => this.onData(socket, chunk));
    socket.on('timeout', () => {
      if (this.inFlight !== undefined) socket.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`));
    });
    let error: NodeJS.ErrnoException | undefined;
    socket.on('error', (err) => (error = err)); // 'close' follows and settles the request
    socket.on('close', () => this.onClose(socket, error));
  }

  private onData(socket: net.Socket, chunk: Buffer): void {
    let responses: HttpResponse[];
    try {
      responses = this.parser.push(chunk);
    } catch (err) {
      socket.destroy(err as Error);
      return;
    }
    for (const response of responses) {
      const request = this.inFlight;
      if (request === undefined) {
        socket.destroy(new Error('an answer to no request'));
        return;
      }
      this.inFlight = undefined;
      this.answered = true;
      if (response.close) {
        socket.destroy();
        this.socket = undefined;
      }
      request.resolve(response);
    }
  }

  private onClose(socket: net.Socket, error: NodeJS.ErrnoException | undefined): void {
    if (this.socket !== socket) return; // an old socket, already replaced
    this.socket = undefined;
    const request = this.inFlight;
    if (request === undefined) return;
    const reset = error === undefined || error.code === 'ECONNRESET' || error.code === 'EPIPE';
    if (request.reused && this.parser.buffered === 0 && reset) {
      this.write(); // the server closed an idle kept-alive socket as the request went out
      return;
    }
    this.inFlight = undefined;
    request.reject(error ?? new Error('the server closed the connection before answering'));
  }
}

/** Idle connections to one host:port, reused by request (the bench's sequential calls). */
export class ConnectionPool {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  async send(text: string): Promise<HttpResponse> {
    const connection = this.idle.pop() ?? this.create();
    try {
      return await connection.send(text);
    } finally {
      this.idle.push(connection);
    }
  }

  /** A connection of the pool's own, for a load loop that keeps it busy. */
  create(): Connection {
    const connection = new Connection(this.host, this.port);
    this.all.push(connection);
    return connection;
  }

  close(): void {
    for (const c of this.all) c.close();
  }
}
