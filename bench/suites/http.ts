import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApiKey } from "@/lib/auth/api-keys";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { type GeneratedMemory, generateUser } from "../data/generator";
import { createScratchDatabase } from "../databases";
import { type Call, HttpConnection } from "../http-client";
import { type LatencySummary, mean, recallAtK, summarize, timed } from "../metrics";
import { chunks } from "../peers/store";
import { processGroupCpuMs, waitUntilIdle } from "../waiting";
import { type ChatLoadFigure, chatAtOnce } from "./http-chat";
import { duringLoad, embeddingBacklogOf, LOOP_DELAY_SCRAPE_SECONDS, type LoopDelay } from "./loop-delay";
import { type WriteToSearchable, writeToSearchable } from "./searchable";

/** What the bench asks of the batch endpoint per request (it takes up to 1,000). */
export const HTTP_BATCH_SIZE = 500;
/** Clients (each its own user and key) loading at once for the parallel ingest rate: a server's capacity, not one importer's pace. */
export const HTTP_INGEST_CLIENTS = 4;
/** Enough for V8 to optimise the request path: the figures are the steady state, not the first requests. */
const WARMUP_REQUESTS = 200;
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
/** Between a search that did not yet return a new memory and the next: each vector search embeds its query too. */
const SEARCHABLE_POLL_MS = 100;
const SEARCHABLE_TIMEOUT_MS = 60_000;
/**
 * Quiet: under a tenth of a core for 3 s. The embedding job keeps a core busy while memories wait, and a job queue
 * polls each second, so a gap between two users' jobs stays well under the window.
 */
const QUIET = { windowMs: 3_000, maxShare: 0.1, timeoutMs: 30 * 60_000 };
/** The bench's own servers' metrics token: their scrapes answer only to it. */
const METRICS_TOKEN = "bench-metrics-token-0123456789";

export interface HttpConfiguration {
  name: string;
  /** The server's environment on top of the bench's own ("" unsets what the shell may have set). */
  env: Record<string, string>;
  /** Whether the configuration is there to time vectors: where the server then says it runs none, it is skipped. */
  vectors: boolean;
}

/**
 * What `npm install && npm run dev` runs first (EMBEDDING_MODEL unset is the bundled local encoder, and search is
 * hybrid wherever the database has pgvector), then vectors off, on each database.
 */
export const HTTP_CONFIGURATIONS: readonly HttpConfiguration[] = [
  { name: "default", env: { EMBEDDING_MODEL: "" }, vectors: true },
  { name: "EMBEDDING_MODEL=none", env: { EMBEDDING_MODEL: "none" }, vectors: false },
];

/** What GET /api/health said the server runs: what the figures are of, whatever the configuration asked for. */
export interface HttpHealth {
  database: string;
  vector: boolean;
  embedding: string | null;
}

export interface HttpOptions {
  /** The searched user's memories. */
  memories: number;
  /** Memories another user loads through the batch route for the ingest rate (its first request is a warm-up). */
  ingestMemories: number;
  requests: number;
  /** Clients (each its own user and key) sending single POSTs at once, and POSTs each sends after an untimed one. */
  singleClients: number;
  singlePosts: number;
  /** Writes whose write-to-searchable time is measured. */
  searchableWrites: number;
  /** People chatting at once (each their own user, key and thread), and the messages each sends. */
  chatPeople: number;
  chatMessages: number;
  seed: number;
  /** Admin connection string of the local PostgreSQL, for a scratch database of the server's own. */
  postgresUrl: string;
  log: (message: string) => void;
}

interface HttpRunOf {
  database: string;
  /** HttpConfiguration.name */
  configuration: string;
  health: HttpHealth;
}

/** A configuration not measured, and why (the server did not run what the configuration is there to time). */
export interface HttpSkipped extends HttpRunOf {
  skipped: string;
}

export interface HttpFigure extends HttpRunOf {
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
  /**
   * Where vectors run: from the end of the loads until the server was quiet, i.e. the vectors of everything loaded
   * were written, to within QUIET.windowMs (null: not quiet within QUIET.timeoutMs). The searches are timed after it,
   * as are the probes.
   */
  vectorsCaughtUpMs?: number | null;
  me: LatencySummary;
  /** POST /api/v1/memories/search in the server's default mode. */
  search: LatencySummary;
  /**
   * The same searches from singleClients clients at once, each on its own connection (absent in runs recorded before
   * it was measured): how long one waits while others search too.
   */
  searchAtOnce?: { clients: number; latencyMs: LatencySummary };
  /** recall@10 of the HTTP search answers (the generated topics), a check that the figures are of real searches. */
  searchRecallAt10: number;
  /** The legs whose values the timed searches' results carried (`lexical`, `vector`): what the default mode ran. */
  searchLegs: string[];
  /** POST /api/v1/memories from singleClients clients at once, each its own user, after the searches. */
  singlePost: {
    clients: number;
    memories: number;
    rate: number;
    latencyMs: LatencySummary;
    /** The server's event-loop delay while the single POSTs ran (absent in runs recorded before it was measured). */
    loopDelay?: LoopDelay | null;
    /**
     * Where the server runs vectors: from the burst's last answer until the server's embedding backlog read zero,
     * every memory of the burst then found by meaning (null: not within SEARCHABLE_TIMEOUT_MS; absent without vectors,
     * and in runs before it was measured).
     */
    vectorsSearchableMs?: number | null;
  };
  /**
   * Searches from one client, one after another, while the single-POST clients send a burst of new memories again
   * (absent in runs recorded before it was measured).
   */
  searchWhilePosting?: { posters: number; searches: number; latencyMs: LatencySummary };
  searchable: WriteToSearchable;
  /** People chatting at once with the offline model, last (absent in runs recorded before it was measured). */
  chat?: ChatLoadFigure & { loopDelay: LoopDelay | null };
}

export type HttpRun = HttpFigure | HttpSkipped;

/** The figure of a run before configurations: EMBEDDING_MODEL=none and WORKER=off were the only setup. */
export type LegacyHttpFigure = Pick<
  HttpFigure,
  "database" | "memories" | "startupMs" | "ingest" | "me" | "search" | "searchRecallAt10"
>;

/**
 * The app as installed: `next start` on the production build (ensureBuild first) in `configuration` with a scratch
 * database (PGlite in a temp directory, or a scratch database on the local PostgreSQL), users and API keys written
 * before the server opens it, memories loaded over HTTP, then sequential keep-alive requests after a warm-up, single
 * POSTs from several clients at once, and the write-to-searchable probes. The server is stopped however the run ends.
 */
export async function measureHttp(
  kind: "pglite" | "postgres",
  configuration: HttpConfiguration,
  options: HttpOptions,
): Promise<HttpRun> {
  const scratch = await scratchDatabase(kind, options.postgresUrl);
  try {
    const database = await scratch.open();
    const keyOf = async (name: string) => (await withUserAndKey(database, name)).key;
    const keys: Keys = {
      search: await keyOf("search"),
      ingest: await keyOf("ingest"),
      parallel: [],
      single: [],
      chat: [],
    };
    for (let client = 1; client <= HTTP_INGEST_CLIENTS; client++) keys.parallel.push(await keyOf(`ingest-${client}`));
    for (let client = 1; client <= options.singleClients; client++) keys.single.push(await keyOf(`single-${client}`));
    for (let person = 1; person <= options.chatPeople; person++) keys.chat.push(await keyOf(`chat-${person}`));
    await database.close();
    const server = await startServer({ ...scratch.env, ...configuration.env }, configuration.name, options.log);
    try {
      const health = await readHealth(server.url);
      const run = { database: scratch.label, configuration: configuration.name, health };
      options.log(`${scratch.label}, ${configuration.name}: /api/health says ${JSON.stringify(health)}`);
      // PostgreSQL without pgvector runs the default with no vector leg: the same lexical path EMBEDDING_MODEL=none
      // times next. Timed twice, the default's row would read as if vectors cost nothing there.
      if (configuration.vectors && !health.vector) {
        return { ...run, skipped: "the server runs no vectors here, so its default is the EMBEDDING_MODEL=none path" };
      }
      return { ...run, ...(await exercise(server, keys, scratch, health, options)) };
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
   * suites do before they measure. On PGlite the server keeps its own (lib/db/planner-statistics.ts).
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

interface Keys {
  search: string;
  ingest: string;
  parallel: string[];
  single: string[];
  chat: string[];
}

async function readHealth(url: string): Promise<HttpHealth> {
  const response = await fetch(`${url}/api/health`);
  const body = (await response.json()) as Partial<HttpHealth>;
  if (!response.ok || typeof body.database !== "string" || typeof body.vector !== "boolean") {
    throw new Error(`/api/health answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return { database: body.database, vector: body.vector, embedding: body.embedding ?? null };
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
 * as it was at the last build (CI's smoke run starts once `npm test` has built, scripts/test.mjs). Called once before
 * every run, so that the configurations compared are of the same build.
 */
export function ensureBuild(log: (message: string) => void) {
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
  /** Its process group: the server and whatever it started. */
  group: number;
  startupMs: number;
  /** The last 4,000 characters the server printed. */
  output(): string;
  stop(): Promise<void>;
}

/** `next start` in its own process group (so stopping it stops its workers too), healthy or thrown. */
async function startServer(
  env: Record<string, string>,
  name: string,
  log: (message: string) => void,
): Promise<RunningServer> {
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
        // The install's defaults whatever the shell has: the worker runs in the server (it writes the vectors), one
        // encoder thread. The configuration sets EMBEDDING_MODEL.
        WORKER: "",
        LOCAL_EMBEDDING_THREADS: "",
        LOCAL_EMBEDDING_NICENESS: "",
        // Sequential requests from one key would otherwise hit the default 300 a minute.
        API_RATE_LIMIT_PER_MINUTE: "10000000",
        // The bench reads the server's event-loop delay from its metrics (bench/suites/loop-delay.ts), in windows as
        // short as its scrapes are apart, so a reading during a load is of that load.
        METRICS_TOKEN,
        METRICS_LOOP_WINDOW_SECONDS: String(LOOP_DELAY_SCRAPE_SECONDS),
        // The chat and extraction run on the offline model, whatever keys the shell has.
        CHAT_MODEL: "offline",
        EXTRACTION_MODEL: "offline",
        DATABASE_URL: "",
        PGLITE_DIR: "",
        ...env,
      },
    },
  );
  if (child.pid !== undefined) keepPriority(child.pid);
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = () => stopServer(child);
  try {
    log(`next start on ${url}, ${name} (${Object.keys(env).join(", ")})`);
    await waitHealthy(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error("next start has no pid");
  return { url, group: child.pid, startupMs: performance.now() - started, output: () => output, stop };
}

/**
 * Gives a server's Linux autogroup the bench's own CPU priority when the bench runs below normal (CI runs its smoke
 * run so, beside the tests: docs/testing.md, "Time"). The server inherits the bench's priority, but started in a
 * session of its own (so that stopping it stops what it started) it is in an autogroup of its own, and the scheduler
 * shares the CPU between autogroups whatever their processes' priority.
 */
function keepPriority(pid: number) {
  const own = os.getPriority();
  const autogroup = `/proc/${pid}/autogroup`;
  if (own <= 0 || !existsSync(autogroup)) return;
  try {
    writeFileSync(autogroup, String(own));
  } catch {
    // Left at the autogroup's normal priority: the same server, only less in the background.
  }
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
  keys: Keys,
  scratch: ScratchDatabase,
  health: HttpHealth,
  options: HttpOptions,
): Promise<Omit<HttpFigure, keyof HttpRunOf>> {
  const connections: Array<{ close(): void; resent(): number }> = [];
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
  // Only the embedding job runs on after its writes have answered.
  const quiet = async (what: string) => {
    if (!health.vector) return undefined;
    if (processGroupCpuMs(server.group) === undefined) {
      options.log("no /proc to read the server's CPU time: not waiting for its vectors");
      return undefined;
    }
    options.log(`waiting for the server to go quiet (${what})`);
    const { ms, share } = await waitUntilIdle(() => processGroupCpuMs(server.group) ?? 0, QUIET);
    const used = `${(share * 100).toFixed(1)}% of a core in the last ${QUIET.windowMs / 1_000} s`;
    options.log(
      ms === undefined
        ? `not quiet in time (${used}): measuring on`
        : `quiet from ${(ms / 1_000).toFixed(1)} s (${used})`,
    );
    return ms ?? null;
  };
  const vectorsCaughtUpMs = await quiet("the vectors of the loaded memories");

  const me = async () => {
    const answer = await call("GET", "/api/v1/me");
    if (answer.status !== 200) throw new Error(`GET /api/v1/me answered ${answer.status}`);
  };
  const queries = user.queries.length > 0 ? user.queries : [{ text: "what editor do I use?", relevant: [] }];
  const legs = new Set<string>();
  const search = async (index: number, through: Call = call) => {
    const query = queries[index % queries.length] as { text: string; relevant: string[] };
    const answer = await through("POST", "/api/v1/memories/search", { query: query.text, limit: 10 });
    if (answer.status !== 200) throw new Error(`POST /api/v1/memories/search answered ${answer.status}`);
    const results = (answer.body as { results: Array<{ memory: { key: string }; lexical?: number; vector?: number }> })
      .results;
    for (const result of results) {
      if (result.lexical !== undefined) legs.add("lexical");
      if (result.vector !== undefined) legs.add("vector");
    }
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
  const searchAtOnce = await searchesAtOnce(
    Array.from({ length: options.singleClients }, () => caller(keys.search)),
    search,
    options.requests,
  );
  const metrics = HttpConnection.keptOpen(server.url);
  connections.push(metrics);
  const scrape = async () =>
    (await metrics.request("GET", "/api/metrics", { authorization: `Bearer ${METRICS_TOKEN}` })).text ?? null;
  const { value: singlePost, loopDelay: singleLoopDelay } = await duringLoad(scrape, () =>
    postAtOnce(
      keys.single.map((key) => caller(key)),
      options,
    ),
  );
  const { endedAt, ...posted } = singlePost;
  const vectorsSearchableMs = health.vector ? await backlogEmptied(scrape, endedAt) : undefined;
  await quiet("the vectors of the single POSTs");
  const whilePosting = await searchWhilePosting(
    keys.single.map((key) => caller(key)),
    caller(keys.search),
    search,
    options,
  );
  await quiet("the vectors of the burst searched during");
  options.log(`write-to-searchable: ${options.searchableWrites} writes`);
  const searchable = await writeToSearchable(
    { write: call, lexical: caller(keys.search), vector: health.vector ? caller(keys.search) : undefined },
    { writes: options.searchableWrites, intervalMs: SEARCHABLE_POLL_MS, timeoutMs: SEARCHABLE_TIMEOUT_MS },
  );
  const { value: chat, loopDelay: chatLoopDelay } = await duringLoad(scrape, () =>
    chatAtOnce(
      keys.chat.map((key) => caller(key)),
      options.chatMessages,
      options.log,
    ),
  );
  for (const connection of connections) connection.close();
  const resent = connections.reduce((sum, connection) => sum + connection.resent(), 0);
  if (resent > 0) options.log(`${resent} requests were sent again: their reused connection was reset before an answer`);
  return {
    memories: options.memories,
    startupMs: server.startupMs,
    ingest,
    ...(vectorsCaughtUpMs === undefined ? {} : { vectorsCaughtUpMs }),
    me: summarize(meMs),
    search: summarize(searchMs),
    searchAtOnce,
    searchRecallAt10: mean(recalls),
    searchLegs: [...legs].sort(),
    singlePost: {
      ...posted,
      loopDelay: singleLoopDelay,
      ...(vectorsSearchableMs === undefined ? {} : { vectorsSearchableMs }),
    },
    searchWhilePosting: whilePosting,
    searchable,
    chat: { ...chat, loopDelay: chatLoopDelay },
  };
}

/**
 * `requests` searches of one user's memories shared among `callers`, each on its own connection, all at once: each
 * search's time. Every client's first search is untimed, as its connection opens.
 */
async function searchesAtOnce(
  callers: Call[],
  search: (index: number, through: Call) => Promise<unknown>,
  requests: number,
): Promise<NonNullable<HttpFigure["searchAtOnce"]>> {
  await Promise.all(callers.map((call, client) => search(client, call)));
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    callers.map(async (call) => {
      while (next < requests) {
        const index = next++;
        latencies.push((await timed(() => search(index, call))).ms);
      }
    }),
  );
  return { clients: callers.length, latencyMs: summarize(latencies) };
}

/**
 * One client searching, one search after another, while the single-POST clients send a burst of new memories again:
 * how long a search waits behind writes and the vectors they ask for (docs/performance.md, "What keeps search fast").
 */
async function searchWhilePosting(
  posters: Call[],
  searcher: Call,
  search: (index: number, through: Call) => Promise<unknown>,
  options: HttpOptions,
): Promise<NonNullable<HttpFigure["searchWhilePosting"]>> {
  let posting = true;
  const latencies: number[] = [];
  const searching = (async () => {
    for (let index = 0; posting; index++) latencies.push((await timed(() => search(index, searcher))).ms);
  })();
  const posted = postAtOnce(posters, options, { name: "burst", seed: 200 }).finally(() => {
    posting = false;
  });
  await Promise.all([posted, searching]);
  return { posters: posters.length, searches: latencies.length, latencyMs: summarize(latencies) };
}

/**
 * Each client sends its own user's memories one POST at a time, all clients at once: memories written per second, and
 * each request's time. Every client's first POST is untimed, as the batch loads' first request is.
 */
async function postAtOnce(
  callers: Call[],
  options: HttpOptions,
  burst: { name: string; seed: number } = { name: "single", seed: 100 },
): Promise<HttpFigure["singlePost"] & { endedAt: number }> {
  const memories = callers.map(
    (_, client) =>
      generateUser(
        options.seed + burst.seed + client,
        { name: `http ${burst.name} ${client}`, memories: options.singlePosts + 1 },
        0,
      ).memories,
  );
  const post = async (call: Call, memory: GeneratedMemory | undefined) => {
    if (!memory) return;
    const answer = await call("POST", "/api/v1/memories", bodyOf(memory));
    if (answer.status !== 201) throw new Error(`POST /api/v1/memories answered ${answer.status}`);
  };
  await Promise.all(callers.map((call, client) => post(call, memories[client]?.[0])));
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    callers.map(async (call, client) => {
      for (const memory of memories[client]?.slice(1) ?? []) latencies.push((await timed(() => post(call, memory))).ms);
    }),
  );
  const endedAt = performance.now();
  return {
    clients: callers.length,
    memories: latencies.length,
    rate: latencies.length / ((endedAt - start) / 1_000),
    latencyMs: summarize(latencies),
    endedAt,
  };
}

/**
 * After a burst of single POSTs answered at `endedAt`: ms until the server's embedding backlog (its metrics, which count
 * the memories still without a vector across users) read zero, scraped every SEARCHABLE_POLL_MS; null when not within
 * SEARCHABLE_TIMEOUT_MS. The backlog was zero before the burst (the bench waited for the loads' vectors), so it counts
 * the burst's memories alone, and a memory is found by meaning once its vector is written.
 */
async function backlogEmptied(scrape: () => Promise<string | null>, endedAt: number): Promise<number | null> {
  for (;;) {
    const text = await scrape();
    const backlog = text === null ? null : embeddingBacklogOf(text);
    if (backlog === null) throw new Error("the server's metrics report no embedding backlog");
    const elapsed = performance.now() - endedAt;
    if (backlog === 0) return elapsed;
    if (elapsed > SEARCHABLE_TIMEOUT_MS) return null;
    await new Promise((resolve) => setTimeout(resolve, SEARCHABLE_POLL_MS));
  }
}

/**
 * Each client loads its own user's share of ingestMemories in batches, all at once: memories written per second.
 * Every client first writes one batch more, untimed, as the one-client figure's first request is: a new user's
 * first batch adds all of its words to the statistics, and each server connection plans the inserts once.
 */
async function loadAtOnce(callers: Call[], options: HttpOptions) {
  const share = Math.floor(options.ingestMemories / callers.length);
  // Per client: the untimed first batch, then the timed ones. A first batch larger than the share (in --smoke) would
  // only give the encoder more to catch up with.
  const first = Math.min(HTTP_BATCH_SIZE, share);
  const batches = callers.map((_, client) => {
    const spec = { name: `http ingest ${client}`, memories: share + first };
    const memories = generateUser(options.seed + 10 + client, spec, 0).memories;
    return { first: memories.slice(0, first), rest: chunks(memories.slice(first), HTTP_BATCH_SIZE) };
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
