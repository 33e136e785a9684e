import net from "node:net";

export interface HttpAnswer {
  status: number;
  /** The answer parsed as JSON; null when it is not JSON. */
  body: unknown;
  /** The answer as text when it is not JSON (a streamed chat answer, a Prometheus scrape). */
  text?: string;
}

/** One request on a client's own connection, its API key already in the headers. */
export type Call = (method: "GET" | "POST", route: string, body?: unknown) => Promise<HttpAnswer>;

/** Below Node's keep-alive timeout (5 s), which `next start` keeps. */
const REUSE_IDLE_MS = 4_000;

/**
 * One keep-alive HTTP/1.1 connection, one request at a time: the request written as bytes, the answer read by its
 * Content-Length or chunks. The bench's client shares two cores with the server and PostgreSQL, and Node's fetch
 * spent about 0.7 ms of CPU per request of its own (wrk measured /api/v1/me at 1.5 ms p50 where fetch saw 2.4 ms):
 * the figures are meant to be the server's, so the client does as little as it can.
 */
export class HttpConnection {
  readonly #host: string;
  readonly #socket: net.Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve(answer: HttpAnswer): void; reject(error: Error): void } | undefined;
  /** The server closes a connection idle for its keep-alive timeout (Node's 5 s): the next request opens another. */
  closed = false;

  private constructor(socket: net.Socket, host: string) {
    this.#socket = socket;
    this.#host = host;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#answer();
    });
    const fail = (error: Error) => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(Object.assign(error, { beforeAnswer: this.#buffer.length === 0 }));
    };
    socket.on("error", fail);
    socket.on("close", () => {
      this.closed = true;
      fail(new Error("the server closed the connection"));
    });
  }

  static async open(origin: string): Promise<HttpConnection> {
    const url = new URL(origin);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new HttpConnection(socket, url.host);
  }

  request(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
    if (this.#waiting) throw new Error("one request at a time");
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const lines = [`${method} ${path} HTTP/1.1`, `host: ${this.#host}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (payload) lines.push("content-type: application/json", `content-length: ${payload.length}`);
    const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(payload ? Buffer.concat([head, payload]) : head);
    });
  }

  /**
   * A connection to `origin` that reconnects when the server has closed the last one, or is about to: one idle for
   * nearly the keep-alive timeout is not reused. A request written just as the server closes the idle socket is lost
   * with it, unread, and the server's reset is all that comes back; when its process was starved of CPU (CI runs the
   * smoke bench at the lowest priority beside vitest), its keep-alive timer can fire before it reads a request that
   * arrived in time. So a request on a reused connection that fails before the first byte of its answer is sent again
   * once, on a new connection, as browsers do; a server that has really gone fails the second try as well.
   */
  static keptOpen(origin: string) {
    let current: HttpConnection | undefined;
    let lastAnswer = 0;
    let resent = 0;
    return {
      /** Requests sent again on a new connection, so that a run can say how many there were. */
      resent: () => resent,
      async request(method: string, path: string, headers: Record<string, string>, body?: unknown) {
        if (current && !current.closed && performance.now() - lastAnswer > REUSE_IDLE_MS) current.close();
        const reused = current !== undefined && !current.closed;
        if (!current || current.closed) current = await HttpConnection.open(origin);
        try {
          return await current.request(method, path, headers, body);
        } catch (error) {
          if (!reused || !(error instanceof Error && "beforeAnswer" in error && error.beforeAnswer)) throw error;
          current.close();
          current = await HttpConnection.open(origin);
          resent += 1;
          return await current.request(method, path, headers, body);
        } finally {
          lastAnswer = performance.now();
        }
      },
      close: () => current?.close(),
    };
  }

  close(): void {
    this.closed = true;
    this.#socket.destroy();
  }

  /** Hands the waiting request its answer once the whole of it has arrived. */
  #answer(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    const headEnd = this.#buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = this.#buffer.subarray(0, headEnd).toString("latin1");
    const status = Number(head.slice(9, 12));
    let position = headEnd + 4;
    let body: Buffer;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      const size = Number(length[1]);
      if (this.#buffer.length < position + size) return;
      body = this.#buffer.subarray(position, position + size);
      position += size;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = this.#buffer.indexOf("\r\n", position);
        if (lineEnd < 0) return;
        const size = Number.parseInt(this.#buffer.subarray(position, lineEnd).toString("latin1"), 16);
        if (this.#buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          position = lineEnd + 4;
          break;
        }
        parts.push(this.#buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        position = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      body = Buffer.alloc(0);
    }
    this.#buffer = this.#buffer.subarray(position);
    this.#waiting = undefined;
    let parsed: unknown = null;
    let text: string | undefined;
    try {
      parsed = body.length > 0 ? JSON.parse(body.toString("utf8")) : null;
    } catch {
      text = body.toString("utf8");
    }
    waiting.resolve({ status, body: parsed, ...(text === undefined ? {} : { text }) });
  }
}
