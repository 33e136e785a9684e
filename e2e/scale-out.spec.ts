import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { type APIRequestContext, type Browser, expect, request, test } from "@playwright/test";
import postgres from "postgres";
import { storedKey } from "../lib/api/rate-limit";
import { createCitusDatabase } from "../tests/support/citus";
import { type OpenAIStub, startOpenAIStub } from "../tests/support/openai-stub";

/**
 * Scale-out: two production web processes that only enqueue extraction (WORKER=off) and two standalone workers, all
 * on one fresh database — on a Citus cluster (TEST_CITUS_URL, its coordinator) when there is one, else on PostgreSQL
 * (TEST_DATABASE_URL). Chat exchanges alternate between the web processes, and edits of one memory race through both.
 * Citus runs the queue and the memories on a distributed schema, which PostgreSQL's run would only repeat; the queue's
 * own guarantees on PostgreSQL are tests/extraction/workers.test.ts's (docs/testing.md, "Time").
 */

const PORTS = [3310, 3311];
const origins = PORTS.map((port) => `http://127.0.0.1:${port}`);
const AUTH_SECRET = "scale-out-only-secret-not-for-production-0123456789";

const REGISTERED = 2;
const GUESTS = 4;
// 120 exchanges: 24 conversations at once, each alternating between the web processes. 300 proved nothing more and
// took a minute longer of CI's two cores (docs/testing.md, "Time").
const THREADS_PER_USER = 4;
const EXCHANGES_PER_THREAD = 5;
const SIGN_INS_PER_EMAIL = 4;

interface Server {
  name: string;
  fresh(): Promise<{ url: string; drop: () => Promise<void> }>;
}

const servers: Server[] = [];
const postgresUrl = process.env.TEST_DATABASE_URL;
const citusUrl = process.env.TEST_CITUS_URL;
if (citusUrl) servers.push({ name: "citus", fresh: () => createCitusDatabase(citusUrl, "ml_scale") });
else if (postgresUrl) servers.push({ name: "postgres", fresh: () => freshPostgres(postgresUrl) });

test.skip(
  servers.length === 0,
  "scale-out needs PostgreSQL: set TEST_DATABASE_URL and/or TEST_CITUS_URL (the CI does)",
);
test.describe.configure({ mode: "serial" });

async function freshPostgres(adminUrl: string) {
  const name = `ml_scale_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

interface User {
  label: string;
  userId: string;
  api: APIRequestContext;
  close: () => Promise<void>;
}

/** The two facts of one exchange: the chat model saves the first sentence itself, background extraction the second. */
function factsOf(u: number, t: number, e: number) {
  const code = `${u}x${t}x${e}`;
  return { chat: `Parcel ${code} is in bay ${(e % 9) + 1}`, extracted: `Crate ${code} is on shelf ${(t % 7) + 1}` };
}

for (const server of servers) {
  test.describe(`scale-out [${server.name}]`, () => {
    let sql: postgres.Sql;
    let chatModel: OpenAIStub;
    let dropDatabase: () => Promise<void>;
    const processes: Array<{ name: string; child: ChildProcess; output: () => string }> = [];
    let users: User[] = [];

    function launch(name: string, command: string, args: string[], env: Record<string, string>) {
      const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout?.on("data", (chunk) => (output += chunk));
      child.stderr?.on("data", (chunk) => (output += chunk));
      const entry = { name, child, output: () => output };
      processes.push(entry);
      return entry;
    }

    async function poll<T>(
      probe: () => Promise<T | undefined | false>,
      timeoutMs: number,
      what: string | (() => string),
    ): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await probe().catch(() => undefined);
        if (value) return value;
        if (Date.now() > deadline) {
          const logs = processes.map((p) => `--- ${p.name}:\n${p.output().slice(-3_000)}`).join("\n");
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}\n${logs}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }

    async function guest(index: number): Promise<User> {
      const api = await request.newContext();
      const me = await api.get(`${origins[index % 2]}/api/auth/guest?redirectUrl=/api/v1/me`);
      expect(me.ok()).toBe(true);
      const { userId } = (await me.json()) as { userId: string };
      return { label: `guest ${index}`, userId, api, close: () => api.dispose() };
    }

    /** Signs up through the real form (a server action), then uses that browser context's cookies for HTTP calls. */
    async function registered(browser: Browser, index: number): Promise<User> {
      const context = await browser.newContext();
      const page = await context.newPage();
      const email = `scale-${index}-${randomBytes(4).toString("hex")}@example.com`;
      await page.goto(`${origins[index % 2]}/register`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("correct horse battery");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByTestId("user-menu")).toContainText(email);
      await page.close();
      const me = await context.request.get(`${origins[(index + 1) % 2]}/api/v1/me`);
      expect(me.ok()).toBe(true);
      const { userId } = (await me.json()) as { userId: string };
      return { label: email, userId, api: context.request, close: () => context.close() };
    }

    test.beforeAll(async ({ browser }, testInfo) => {
      testInfo.setTimeout(180_000);
      const database = await server.fresh();
      dropDatabase = database.drop;
      sql = postgres(database.url, { max: 2, onnotice: () => {} });
      // The chat model (a provider over HTTP) saves the exchange's first sentence itself and answers; the offline manager
      // then reads the whole exchange and finds the second.
      chatModel = await startOpenAIStub((body) => {
        const messages = body.messages as Array<{ role: string; content: unknown }>;
        if (messages.at(-1)?.role === "tool") return { text: "Noted." };
        const content = messages.findLast((message) => message.role === "user")?.content;
        const said = Array.isArray(content)
          ? content.map((part: { text?: string }) => part.text ?? "").join("")
          : String(content ?? "");
        const first = said.split(". ")[0]!.replace(/^Remember that /, "");
        const fact = first.charAt(0).toUpperCase() + first.slice(1);
        return { toolCalls: [{ name: "manage_memory", arguments: { action: "create", content: fact } }] };
      });
      const common = {
        DATABASE_URL: database.url,
        AUTH_SECRET,
        AUTH_GUESTS: "true",
        CHAT_MODEL: "openai-compatible:scale-out-chat",
        CHAT_MODELS: "",
        OPENAI_COMPATIBLE_BASE_URL: chatModel.baseURL,
        EXTRACTION_MODEL: "offline",
        EMBEDDING_MODEL: "",
        EXTRACTION_DEBOUNCE_MS: "200",
        // The limits are shared by both processes: the chats and racing edits of one user stay well inside this, and the
        // sign-in limit per email is low enough for the last test to reach it.
        API_RATE_LIMIT_PER_MINUTE: "5000",
        AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: String(SIGN_INS_PER_EMAIL),
      };
      // All four start at once on the empty database, so the migrations of the app and of the queue race too.
      // Node closes a keep-alive connection after 5 s idle; a client that sends on it as it closes gets ECONNRESET
      // (the API contexts sit idle between sign-up and the first exchange). Servers outlive their clients' idle gaps.
      const keepAlive = ["--keepAliveTimeout", "65000"];
      for (const [index, port] of PORTS.entries()) {
        launch(
          `web ${port}`,
          "node_modules/.bin/next",
          ["start", "-p", String(port), "-H", "127.0.0.1", ...keepAlive],
          {
            ...common,
            WORKER: "off",
          },
        );
        launch(`worker ${index}`, process.execPath, ["scripts/run-worker.mjs"], common);
      }
      for (const origin of origins) {
        await poll(async () => (await fetch(`${origin}/api/health`)).ok, 120_000, `${origin} to be healthy`);
        const health = (await (await fetch(`${origin}/api/health`)).json()) as { database: string; workers?: number };
        expect(health.database).toBe(server.name);
        if (server.name === "citus") expect(health.workers).toBe(2);
      }
      await poll(
        async () => processes.filter((p) => p.output().includes("extraction worker ready")).length === 2,
        120_000,
        "both workers to be ready",
      );
      users = [
        ...(await Promise.all(Array.from({ length: REGISTERED }, (_, i) => registered(browser, i)))),
        ...(await Promise.all(Array.from({ length: GUESTS }, (_, i) => guest(i)))),
      ];
    });

    test.afterAll(async () => {
      await Promise.all(users.map((user) => user.close()));
      for (const { child } of processes) child.kill("SIGTERM");
      await Promise.all(
        processes.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
              child.on("exit", () => {
                clearTimeout(timer);
                resolve();
              });
            }),
        ),
      );
      await sql?.end();
      await dropDatabase?.();
      await chatModel?.close();
    });

    test("a hundred and more exchanges through two web processes are each extracted exactly once by two workers", async () => {
      test.setTimeout(240_000);
      const threadIds = users.map((_, u) =>
        Array.from({ length: THREADS_PER_USER }, (_, t) => `scale-${u}-${t}-${randomBytes(3).toString("hex")}`),
      );
      let requests = 0;
      const startedAt = Date.now();
      // Every thread is a conversation of its own: its exchanges in order, each one sent to the other web process.
      await Promise.all(
        users.flatMap((user, u) =>
          threadIds[u]!.map(async (threadId, t) => {
            for (let e = 0; e < EXCHANGES_PER_THREAD; e++) {
              const { chat, extracted } = factsOf(u, t, e);
              const response = await user.api.post(`${origins[(t + e) % 2]}/api/chat`, {
                data: {
                  id: threadId,
                  trigger: "submit-message",
                  message: {
                    id: `${threadId}-m${e}`,
                    role: "user",
                    parts: [{ type: "text", text: `Remember that ${chat.toLowerCase()}. Remember that ${extracted}.` }],
                  },
                },
                timeout: 60_000,
              });
              requests++;
              const stream = await response.text();
              expect(response.status(), stream).toBe(200);
              // The chat saved the first fact itself and streamed its answer to the end.
              expect(stream).toContain(`"output":{"action":"created"`);
              expect(stream).toContain("data: [DONE]");
            }
          }),
        ),
      );
      const chattedAt = Date.now();
      const exchanges = users.length * THREADS_PER_USER * EXCHANGES_PER_THREAD;
      expect(requests).toBe(exchanges);

      // Each thread holds every user message and answer, and its extraction cursor reaches the end.
      const threads = await sql<Array<{ id: string; extracted_through: number; messages: number }>>`
      select t.id, t.extracted_through, (select count(*)::int from messages m
        where m.user_id = t.user_id and m.thread_id = t.id) as messages
      from threads t`;
      expect(threads).toHaveLength(users.length * THREADS_PER_USER);
      expect(threads.every((thread) => thread.messages === 2 * EXCHANGES_PER_THREAD)).toBe(true);
      await poll(
        async () => {
          const [pending] = await sql<Array<{ lagging: number; open: number }>>`
          select (select count(*)::int from threads t where t.extracted_through < (select count(*) from messages m
                    where m.user_id = t.user_id and m.thread_id = t.id)) as lagging,
                 (select count(*)::int from pgboss.job where state in ('created', 'retry', 'active')) as open`;
          return pending!.lagging === 0 && pending!.open === 0;
        },
        150_000,
        "every thread to be extracted and the queue to be empty",
      );
      const extractedAt = Date.now();

      // The succeeded runs of each thread read consecutive, non-overlapping message ranges covering the whole thread:
      // every exchange was extracted by exactly one run.
      const runs = await sql<
        Array<{
          id: string;
          thread_id: string;
          status: string;
          from_position: number;
          through_position: number;
          attempts: number;
        }>
      >`select id, thread_id, status, from_position, through_position, attempts from extraction_runs
      order by thread_id, from_position`;
      expect(runs.filter((run) => run.status !== "succeeded")).toEqual([]);
      for (const thread of threads) {
        const ranges = runs
          .filter((run) => run.thread_id === thread.id)
          .map((run) => [run.from_position, run.through_position] as const);
        expect(ranges.length, thread.id).toBeGreaterThan(0);
        expect(ranges[0]![0], thread.id).toBe(0);
        for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0], thread.id).toBe(ranges[i - 1]![1]);
        expect(ranges.at(-1)![1], thread.id).toBe(thread.messages);
      }

      // Every fact is stored exactly once: the chat's by the chat, the other by the extractor, citing a run of its thread.
      const memories = await sql<
        Array<{ user_id: string; text: string; actor_type: string; thread_id: string; run_id: string | null }>
      >`
      select user_id, text, actor_type, thread_id, run_id from memories`;
      const threadOfRun = new Map(runs.map((run) => [run.id, run.thread_id]));
      for (const memory of memories.filter((m) => m.actor_type === "extractor")) {
        expect(threadOfRun.get(memory.run_id!), memory.text).toBe(memory.thread_id);
      }
      const stored = memories.map((memory) => `${memory.user_id} ${memory.actor_type}: ${memory.text}`).sort();
      const expected = users
        .flatMap((user, u) =>
          Array.from({ length: THREADS_PER_USER * EXCHANGES_PER_THREAD }, (_, i) => {
            const facts = factsOf(u, Math.floor(i / EXCHANGES_PER_THREAD), i % EXCHANGES_PER_THREAD);
            return [`${user.userId} agent: ${facts.chat}`, `${user.userId} extractor: ${facts.extracted}`];
          }),
        )
        .flat()
        .sort();
      expect(stored).toEqual(expected);

      // Extraction's writes queue work of their own (consolidation, vectors), which may still be running here.
      const unfinished = () => sql<Array<{ name: string; state: string; count: number; output: string | null }>>`
      select name, state, count(*)::int as count, string_agg(distinct output::text, '; ') as output
      from pgboss.job where state <> 'completed' group by name, state order by name, state`;
      // A job left unfinished is named in the failure with what the queue kept of its error, beside the processes' logs.
      let left: unknown[] = [];
      await poll(
        async () => {
          left = await unfinished().catch((error: Error) => [`the query failed: ${error.message}`]);
          return left.length === 0;
        },
        30_000,
        () => `every job to finish; unfinished: ${JSON.stringify(left)}`,
      );
      const jobs = await sql<Array<{ state: string; count: number }>>`
      select state, count(*)::int as count from pgboss.job group by state order by state`;
      console.log(
        `scale-out: ${users.length} users, ${threads.length} threads, ${exchanges} exchanges over 2 web processes in ` +
          `${Math.round((chattedAt - startedAt) / 1000)} s; ${runs.length} extraction runs by 2 workers ` +
          `(${runs.filter((run) => run.attempts > 1).length} needed a retry), ` +
          `${jobs.map((row) => `${row.count} jobs ${row.state}`).join(", ")}; ${memories.length} memories for ` +
          `${expected.length} facts, 0 duplicated; extraction caught up ${Math.round((extractedAt - chattedAt) / 1000)} s ` +
          "after the last exchange",
      );
    });

    test("racing edits of one memory through both web processes: one wins per version, none is lost", async () => {
      test.setTimeout(120_000);
      const [owner] = users;
      const created = await owner!.api.post(`${origins[0]}/api/v1/memories`, { data: { content: "Packing list:" } });
      expect(created.status()).toBe(201);
      const { memory } = (await created.json()) as { memory: { id: string; version: number } };
      const url = (i: number) => `${origins[i % 2]}/api/v1/memories/${memory.id}`;

      // Eight writers holding version 1: exactly one write lands, the rest are told the version moved on.
      const racing = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          owner!.api.patch(url(i), { data: { content: `Packing list: tent from writer ${i}`, expectedVersion: 1 } }),
        ),
      );
      const statuses = racing.map((response) => response.status());
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(7);
      for (const response of racing.filter((r) => r.status() === 409)) {
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("conflict");
      }
      const winner = (await racing[statuses.indexOf(200)]!.json()) as { memory: { version: number; text: string } };
      expect(winner.memory.version).toBe(2);

      // Then every writer appends its items by read, modify, write-with-expected-version, re-reading after each 409.
      const WRITERS = 6;
      const APPENDS = 3;
      let conflicts = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let a = 0; a < APPENDS; a++) {
            for (let attempt = 0; ; attempt++) {
              expect(attempt, "a writer never got its turn").toBeLessThan(60);
              const read = await owner!.api.get(url(w + attempt));
              const current = ((await read.json()) as { memory: { version: number; text: string } }).memory;
              const write = await owner!.api.patch(url(w + attempt + 1), {
                data: { content: `${current.text}, item ${w}.${a}`, expectedVersion: current.version },
              });
              if (write.status() === 200) break;
              expect(write.status()).toBe(409);
              conflicts++;
            }
          }
        }),
      );

      const final = (await (await owner!.api.get(url(1))).json()) as { memory: { version: number; text: string } };
      expect(final.memory.version).toBe(2 + WRITERS * APPENDS);
      const items = final.memory.text.match(/item \d\.\d/g) ?? [];
      expect(items.sort()).toEqual(
        Array.from({ length: WRITERS * APPENDS }, (_, i) => `item ${Math.floor(i / APPENDS)}.${i % APPENDS}`).sort(),
      );
      // The history is one unbroken chain: each version extends the one before it.
      const { versions } = (await (await owner!.api.get(`${url(0)}/history`)).json()) as {
        versions: Array<{ version: number; text: string }>;
      };
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: final.memory.version }, (_, i) => i + 1));
      expect(versions[1]!.text).toBe(winner.memory.text);
      for (let i = 2; i < versions.length; i++)
        expect(versions[i]!.text.startsWith(`${versions[i - 1]!.text}, `)).toBe(true);
      console.log(
        `scale-out edits: 8 racing writers on version 1 → 1 × 200, 7 × 409; then ${WRITERS * APPENDS} appends by ` +
          `${WRITERS} writers through both processes with ${conflicts} conflicts retried; final version ${final.memory.version}`,
      );
    });

    test("one rate limit holds across both web processes", async () => {
      const api = await request.newContext();
      const email = `limited-${randomBytes(4).toString("hex")}@example.com`;
      // Sign-in attempts for one email, alternating between the processes: counted before Auth.js looks at them, so
      // wrong passwords without a CSRF token are attempts like any other.
      const statuses: number[] = [];
      for (let i = 0; i < SIGN_INS_PER_EMAIL * 2; i++) {
        const response = await api.post(`${origins[i % 2]}/api/auth/callback/credentials`, {
          form: { email, password: "not the password" },
          maxRedirects: 0,
        });
        statuses.push(response.status());
        if (response.status() === 429) {
          expect(Number(response.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
          expect(Number(response.headers()["retry-after"])).toBeLessThanOrEqual(60);
        }
      }
      await api.dispose();
      // Counted per process, each would have allowed SIGN_INS_PER_EMAIL; shared, the two allow that many together.
      // The email is counted per client address: both processes see this one's loopback socket (IPv4, or mapped).
      expect(statuses.slice(0, SIGN_INS_PER_EMAIL).every((status) => status !== 429)).toBe(true);
      expect(statuses.slice(SIGN_INS_PER_EMAIL)).toEqual(Array(SIGN_INS_PER_EMAIL).fill(429));
      const [row] = await sql<Array<{ count: number }>>`
      select count from rate_limit_windows where limiter = 'sign-in-email' and key = ${storedKey(`127.0.0.1 ${email}`)}`;
      expect(row?.count).toBe(SIGN_INS_PER_EMAIL * 2);
    });
  });
}
