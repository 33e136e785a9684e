import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApiKey } from "@/lib/auth/api-keys";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { type GeneratedMemory, generateUser } from "../data/generator";
import { createScratchDatabase } from "../databases";
import { HttpConnection } from "../http-client";
import { type LatencySummary, mean, recallAtK, summarize, timed } from "../metrics";
import { chunks } from "../peers/store";

/** What the bench asks of the batch endpoint per request (it takes up to 1,000). */
export const HTTP_BATCH_SIZE = 500;
/** Clients (each its own user and key) loading at once for the parallel ingest rate: a server's capacity, not one importer's pace. */
export const HTTP_INGEST_CLIENTS = 4;
/** Enough for V8 to optimise the request path: the figures are the steady state, not the first requests. */
const WARMUP_REQUESTS = 200;
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

export interface HttpOptions {
  /** The searched user's memories. */
  memories: number;
  /** Memories another user loads through the batch route for the ingest rate (its first request is a warm-up). */
  ingestMemories: number;
  requests: number;
  seed: number;
  /** Admin connection string of the local PostgreSQL, for a scratch database of the server's own. */
  postgresUrl: string;
  log: (message: string) => void;
}

export interface HttpFigure {
  database: string;
  memories: number;
  /** From spawning `next start` to the first healthy answer. */
  startupMs: number;
  /**
   * How memories went in: the batch endpoint when it answers, else one POST each; `rate` over `memories` after the
   * first request (a warm-up).
   */
  ingest: {
    endpoint: "batch" | "single";
    batchSize?: number;
    memories: number;
    rate: number;
    statuses: Record<string, number>;
    /** HTTP_INGEST_CLIENTS clients loading ingestMemories between them at once, in batches of HTTP_BATCH_SIZE. */
    parallel: { clients: number; memories: number; rate: number };
  };
  me: LatencySummary;
  search: LatencySummary;
  /** recall@10 of the HTTP search answers (the generated topics), a check that the figures are of real searches. */
  searchRecallAt10: number;
}

/**
 * The app as deployed: `next start` on the production build with a scratch database (PGlite in a temp directory,
 * or a scratch database on the local PostgreSQL), a user and an API key written before the server opens it,
 * memories loaded over HTTP, then sequential keep-alive requests after a warm-up. The server is stopped however the
 * run ends.
 */
export async function measureHttp(kind: "pglite" | "postgres", options: HttpOptions): Promise<HttpFigure> {
  ensureBuild(options.log);
  const scratch = await scratchDatabase(kind, options.postgresUrl);
  try {
    const database = await scratch.open();
    const searcher = await withUserAndKey(database, "search");
    const loader = await withUserAndKey(database, "ingest");
    const parallel: string[] = [];
    for (let client = 1; client <= HTTP_INGEST_CLIENTS; client++) {
      parallel.push((await withUserAndKey(database, `ingest-${client}`)).key);
    }
    await database.close();
    const server = await startServer(scratch.env, options.log);
    try {
      return await exercise(server, { search: searcher.key, ingest: loader.key, parallel }, scratch, options);
    } catch (error) {
      throw new Error(
        `${scratch.label}: ${error instanceof Error ? error.message : String(error)}; the server printed:\n${server.output()}`,
        { cause: error },
      );
    } finally {
      await server.stop();
    }
  } finally {
    await scratch.drop();
  }
}

interface ScratchDatabase {
  label: string;
  env: Record<string, string>;
  open(): Promise<Database>;
  /**
   * What autovacuum does a little after a bulk load (planner statistics, GIN pending lists merged), as the in-process
   * suites do before they measure. PGlite runs no autovacuum, and the server holds its directory: nothing there.
   */
  settle(): Promise<void>;
  drop(): Promise<void>;
}

async function scratchDatabase(kind: "pglite" | "postgres", adminUrl: string): Promise<ScratchDatabase> {
  if (kind === "pglite") {
    const directory = mkdtempSync(path.join(os.tmpdir(), "ml-bench-http-"));
    const dataDir = path.join(directory, "pglite");
    return {
      label: "PGlite",
      env: { PGLITE_DIR: dataDir },
      open: () => openPglite(dataDir),
      settle: async () => {},
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchDatabase(adminUrl);
  return {
    label: scratch.version.split(" (")[0] as string,
    env: { DATABASE_URL: scratch.url },
    // openPostgres migrates, so the server starts on a ready schema.
    open: () => openPostgres(scratch.url, { max: 1 }),
    settle: async () => {
      const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe("vacuum analyze");
      } finally {
        await admin.end();
      }
    },
    drop: () => scratch.drop(),
  };
}

async function withUserAndKey(database: Database, name: string): Promise<{ userId: string; key: string }> {
  const [user] = await database.unbound.db
    .insert(users)
    .values({ name: `bench http ${name}`, email: `bench-http-${name}@example.com` })
    .returning({ id: users.id });
  if (!user) throw new Error("the bench user was not created");
  const { key } = await createApiKey(
    { database, principal: { userId: user.id } },
    { name: "bench", scopes: ["read", "write"] },
  );
  return { userId: user.id, key };
}

/** What the production build is made of: a file here newer than the build means the build is of other code. */
const BUILD_SOURCES = [
  "app",
  "components",
  "lib",
  "drizzle",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "package.json",
];

/**
 * Builds when there is no production build, or when a source is newer than it: the bench would otherwise time the app
 * as it was at the last build (CI builds in `npm test` just before the bench).
 */
function ensureBuild(log: (message: string) => void) {
  const buildId = path.join(process.cwd(), ".next", "BUILD_ID");
  const stale = existsSync(buildId) ? newestChange(BUILD_SOURCES) > statSync(buildId).mtimeMs : true;
  if (!stale) return;
  log("the production build is missing or older than the sources: running `npx next build` first");
  const built = spawnSync("npx", ["next", "build"], { stdio: ["ignore", 2, 2] });
  if (built.status !== 0) throw new Error(`next build failed (exit ${built.status})`);
}

/** The latest modification time (ms) of the files under `entries` (relative to the project). */
function newestChange(entries: readonly string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(path.join(process.cwd(), entry));
  return newest;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

interface RunningServer {
  url: string;
  startupMs: number;
  /** The last 4,000 characters the server printed. */
  output(): string;
  stop(): Promise<void>;
}

/** `next start` in its own process group (so stopping it stops its workers too), healthy or thrown. */
async function startServer(env: Record<string, string>, log: (message: string) => void): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: process.cwd(),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        AUTH_SECRET: "bench-only-secret-not-for-production-0123456789",
        WORKER: "off",
        // Lexical search: vectors off (unset would mean the bundled local encoder), whatever the shell has.
        EMBEDDING_MODEL: "none",
        // Sequential requests from one key would otherwise hit the default 300 a minute.
        API_RATE_LIMIT_PER_MINUTE: "10000000",
        DATABASE_URL: "",
        PGLITE_DIR: "",
        ...env,
      },
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = () => stopServer(child);
  try {
    log(`next start on ${url} (${Object.keys(env).join(", ")})`);
    await waitHealthy(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, startupMs: performance.now() - started, output: () => output, stop };
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not become healthy in ${STARTUP_TIMEOUT_MS / 1000} s:\n${output()}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function exercise(
  server: RunningServer,
  keys: { search: string; ingest: string; parallel: string[] },
  scratch: ScratchDatabase,
  options: HttpOptions,
): Promise<HttpFigure> {
  const connections: Array<{ close(): void }> = [];
  const caller = (key: string): Call => {
    const connection = HttpConnection.keptOpen(server.url);
    connections.push(connection);
    return (method, route, body) => connection.request(method, route, { authorization: `Bearer ${key}` }, body);
  };
  const call = caller(keys.search);
  const user = generateUser(options.seed, { name: "http", memories: options.memories }, 10);
  await load(call, user.memories, options.log);
  const loaded = generateUser(options.seed + 1, { name: "http ingest", memories: options.ingestMemories }, 0);
  const sequential = await load(caller(keys.ingest), loaded.memories, options.log);
  const parallel = await loadAtOnce(
    keys.parallel.map((key) => caller(key)),
    options,
  );
  const ingest = { ...sequential, parallel };
  await scratch.settle();

  const me = async () => {
    const answer = await call("GET", "/api/v1/me");
    if (answer.status !== 200) throw new Error(`GET /api/v1/me answered ${answer.status}`);
  };
  const queries = user.queries.length > 0 ? user.queries : [{ text: "what editor do I use?", relevant: [] }];
  const search = async (index: number) => {
    const query = queries[index % queries.length] as { text: string; relevant: string[] };
    const answer = await call("POST", "/api/v1/memories/search", { query: query.text, limit: 10 });
    if (answer.status !== 200) throw new Error(`POST /api/v1/memories/search answered ${answer.status}`);
    const results = (answer.body as { results: Array<{ memory: { key: string } }> }).results;
    return query.relevant.length > 0
      ? recallAtK(
          results.map((result) => result.memory.key),
          query.relevant,
          10,
        )
      : Number.NaN;
  };
  for (let i = 0; i < WARMUP_REQUESTS; i++) {
    await me();
    await search(i);
  }
  const meMs: number[] = [];
  for (let i = 0; i < options.requests; i++) meMs.push((await timed(me)).ms);
  const searchMs: number[] = [];
  const recalls: number[] = [];
  for (let i = 0; i < options.requests; i++) {
    const { ms, value } = await timed(() => search(i));
    searchMs.push(ms);
    if (i < queries.length && Number.isFinite(value)) recalls.push(value);
  }
  for (const connection of connections) connection.close();
  return {
    database: scratch.label,
    memories: options.memories,
    startupMs: server.startupMs,
    ingest,
    me: summarize(meMs),
    search: summarize(searchMs),
    searchRecallAt10: mean(recalls),
  };
}

/**
 * Each client loads its own user's share of ingestMemories in batches, all at once: memories written per second.
 * Every client first writes one batch more, untimed, as the one-client figure's first request is: a new user's
 * first batch adds all of its words to the statistics, and each server connection plans the inserts once.
 */
async function loadAtOnce(callers: Call[], options: HttpOptions) {
  const share = Math.floor(options.ingestMemories / callers.length);
  // Per client: the untimed first batch, then the timed ones.
  const batches = callers.map((_, client) => {
    const spec = { name: `http ingest ${client}`, memories: share + HTTP_BATCH_SIZE };
    const [first = [], ...rest] = chunks(generateUser(options.seed + 10 + client, spec, 0).memories, HTTP_BATCH_SIZE);
    return { first, rest };
  });
  const post = async (call: Call, part: readonly GeneratedMemory[]) => {
    const answer = await call("POST", "/api/v1/memories/batch", { memories: part.map(bodyOf) });
    if (answer.status !== 201) throw new Error(`parallel batch ingest answered ${answer.status}`);
  };
  await Promise.all(callers.map((call, client) => post(call, batches[client]?.first ?? [])));
  const start = performance.now();
  await Promise.all(
    callers.map(async (call, client) => {
      for (const part of batches[client]?.rest ?? []) await post(call, part);
    }),
  );
  const memories = share * callers.length;
  return { clients: callers.length, memories, rate: memories / ((performance.now() - start) / 1_000) };
}

type Call = (method: "GET" | "POST", route: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

const bodyOf = (memory: GeneratedMemory) => ({ kind: memory.kind, content: memory.content, key: memory.key });

/**
 * POST /api/v1/memories/batch in parts of HTTP_BATCH_SIZE while it answers 201 or 207; where the route does not
 * exist yet (404, or 405 from the `[id]` route), one POST /api/v1/memories per memory.
 */
async function load(call: Call, memories: readonly GeneratedMemory[], log: (message: string) => void) {
  const statuses: Record<string, number> = {};
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const parts = chunks(memories, HTTP_BATCH_SIZE);
  const first = await call("POST", "/api/v1/memories/batch", { memories: (parts[0] ?? []).map(bodyOf) });
  if (first.status === 201 || first.status === 207) {
    count(first.status);
    const start = performance.now();
    const timedCount = memories.length - (parts[0]?.length ?? 0);
    for (const part of parts.slice(1)) {
      const answer = await call("POST", "/api/v1/memories/batch", { memories: part.map(bodyOf) });
      count(answer.status);
      if (answer.status !== 201 && answer.status !== 207) throw new Error(`batch ingest answered ${answer.status}`);
    }
    return {
      endpoint: "batch" as const,
      batchSize: HTTP_BATCH_SIZE,
      memories: timedCount,
      rate: timedCount / ((performance.now() - start) / 1_000),
      statuses,
    };
  }
  if (first.status !== 404 && first.status !== 405) {
    throw new Error(`POST /api/v1/memories/batch answered ${first.status}: ${JSON.stringify(first.body)}`);
  }
  log(`no batch endpoint (${first.status}): loading ${memories.length} memories one POST each`);
  const singleStart = performance.now();
  for (const memory of memories) {
    const answer = await call("POST", "/api/v1/memories", bodyOf(memory));
    count(answer.status);
    if (answer.status !== 201) throw new Error(`POST /api/v1/memories answered ${answer.status}`);
  }
  return {
    endpoint: "single" as const,
    memories: memories.length,
    rate: memories.length / ((performance.now() - singleStart) / 1_000),
    statuses,
  };
}
