import "../support/route-mocks";
import { MockEmbeddingModelV4 } from "ai/test";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import type { Database } from "@/lib/db/client";
import { bearer, call, principalFor } from "../api-keys/support";
import { finalMessage } from "../chat/support";
import { scriptedManager } from "../extraction/support";
import { contextFor, createUser, withEmbedding } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";

const account = await import("@/app/api/v1/account/route");
const me = await import("@/app/api/v1/me/route");
const { DELETED_ACCOUNT, deleteAccount, deletedAccountResponse } = await import("@/lib/account/delete-account");
const { storedKey, sessionLimiter } = await import("@/lib/api/rate-limit");
const { createApiKey, recordKeyUse, authenticateApiKey } = await import("@/lib/auth/api-keys");
const { startChatTurn } = await import("@/lib/chat/turn");
const { recordAdminView } = await import("@/lib/console/audit");
const { createFeedback, putInstructions } = await import("@/lib/memory/procedural");
const { createMemory, createRule } = await import("@/lib/memory/store");
const { updateSettings } = await import("@/lib/memory/review");
const { runExtraction } = await import("@/lib/memory/extraction");
const { JobQueue } = await import("@/lib/server/queue");
const { createWebhook } = await import("@/lib/memory/webhooks");

const embeddings = new MockEmbeddingModelV4({
  provider: "toy",
  modelId: "flat",
  maxEmbeddingsPerCall: 16,
  doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0, 0]), warnings: [] }),
});

interface Row {
  table: string;
  json: string;
  owner: string | null;
}

/**
 * Every row of every table the app and its job queue keep, read from the catalogue at the time of the test: a table a
 * later migration adds is in here without anyone naming it. `owner` is the row's `user_id` (or `id` for users).
 */
async function everyRow(database: Database): Promise<Row[]> {
  const columns = await database.unbound.rows<{ schema: string; table: string; column: string }>(sql`
    select c.table_schema as schema, c.table_name as table, c.column_name as column
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema in ('public', 'pgboss') and t.table_type = 'BASE TABLE'`);
  const tables = new Map<string, { schema: string; table: string; columns: Set<string> }>();
  for (const { schema, table, column } of columns) {
    const entry = tables.get(`${schema}.${table}`) ?? { schema, table, columns: new Set() };
    entry.columns.add(column);
    tables.set(`${schema}.${table}`, entry);
  }
  const rows: Row[] = [];
  for (const [name, { schema, table, columns: names }] of tables) {
    const ownerColumn = schema === "public" && table === "users" ? "id" : names.has("user_id") ? "user_id" : null;
    const owner = ownerColumn ? sql`t.${sql.identifier(ownerColumn)}::text` : sql`null::text`;
    rows.push(
      ...(await database.unbound.rows<Row>(sql`
        select ${name}::text as table, row_to_json(t)::text as json, ${owner} as owner
        from ${sql.identifier(schema)}.${sql.identifier(table)} t`)),
    );
  }
  return rows;
}

/** Rows that belong to `userId` or carry one of `names` (the id, or a form of it such as a hashed rate-limit key). */
const naming = (rows: Row[], userId: string, names: readonly string[]) =>
  rows.filter((row) => row.owner === userId || names.some((name) => row.json.includes(name)));

describeEachDatabase("deleting an account", (use) => {
  it("leaves no row in any table that names the user, and nobody else's rows change", async () => {
    const database = use();
    routeHarness.database = database;
    const userId = await createUser(database);
    const otherId = await createUser(database);
    const ctx = contextFor(database, userId);
    const memoryCtx = database.vector ? withEmbedding(ctx, embeddings) : ctx;

    // Everything a person accumulates: webhooks (subscribed before the write, so it records a delivery), memories
    // with vectors and statistics, a chat with its answer, recall log and usage, an extraction run that leaves a
    // proposal, a rule, feedback, instructions, settings, an API key used (audit entry, rate-limit window), a job.
    await createWebhook(
      ctx,
      { url: "https://hooks.example.com/in", events: ["memory.created"] },
      { allowPrivate: false },
    );
    await createMemory(memoryCtx, { content: "I prefer dark mode in every app" });
    const turn = await startChatTurn(
      { memory: ctx, model: new OfflineLanguageModel(), modelId: "offline", contextTokens: 8_000 },
      {
        id: "t1",
        trigger: "submit-message",
        message: { id: "t1-u", role: "user", parts: [{ type: "text", text: "My sister lives in Porto" }] },
      },
    );
    const answer = await finalMessage(turn.response);
    await updateSettings(ctx, { review: "all" });
    await runExtraction(
      {
        ctx,
        model: scriptedManager([
          {
            op: "insert",
            kind: "memory",
            content: { content: "Sister lives in Porto" },
            messageId: "t1-u",
            quote: "My sister lives in Porto",
          },
        ]),
        modelId: "mock",
      },
      { threadId: "t1", jobId: "job-1", finalAttempt: true },
    );
    await createRule(ctx, { text: "Never remember my health", terms: ["health"] });
    await createFeedback(ctx, { messageId: answer.id, rating: "up" });
    await putInstructions(ctx, { text: "Answer briefly." });
    const { id: keyId, key } = await createApiKey(ctx, { name: "app", scopes: ["read", "write"] });
    const authenticated = await authenticateApiKey(database, key);
    if (!authenticated.ok) throw new Error("the key did not authenticate");
    await recordKeyUse(database, authenticated.key, "GET /api/v1/me");
    await sessionLimiter.take(database, userId);
    const queue = await JobQueue.open(database);
    try {
      await queue.enqueue({ userId, threadId: "t1" }, 3_600_000);
    } finally {
      await queue.stop(5_000);
    }
    // The user as an admin who read and edited the other user's memories: those records are the other user's.
    await recordAdminView(
      { database, principal: { userId: otherId } },
      { adminId: userId, action: "view_memories", target: "memories" },
    );
    const other = contextFor(database, otherId);
    await createMemory(other, { content: "The other user's own fact" });
    await createMemory({ ...other, actor: { type: "admin", id: userId } }, { content: "Fixed by an admin" });

    const names = [userId, storedKey(userId), storedKey(keyId)];
    const before = await everyRow(database);
    const tablesBefore = new Set(naming(before, userId, names).map((row) => row.table));
    // The fixture reaches the tables that matter most; the check below covers every table whatever it holds.
    for (const table of [
      "public.memories",
      "public.memory_versions",
      "public.memory_terms",
      "public.memory_lexemes",
      "public.memory_corpus",
      ...(database.vector ? ["public.memory_embeddings"] : []),
      "public.threads",
      "public.messages",
      "public.extraction_runs",
      "public.memory_proposals",
      "public.memory_rules",
      "public.answer_feedback",
      "public.instruction_versions",
      "public.model_usage",
      "public.webhook_endpoints",
      "public.webhook_deliveries",
      "public.api_keys",
      "public.user_settings",
      "public.audit_log",
      "public.rate_limit_windows",
      "public.users",
    ]) {
      expect(tablesBefore, table).toContain(table);
    }
    expect([...tablesBefore].some((table) => table.startsWith("pgboss."))).toBe(true);
    expect((await call(me.GET, { path: "/api/v1/me", headers: bearer(key) })).status).toBe(200);

    routeHarness.principal = principalFor(userId);
    const deleted = await call(account.DELETE, {
      method: "DELETE",
      path: "/api/v1/account",
      body: { confirm: "delete my account" },
    });
    expect(deleted.status).toBe(200);
    deletedAccountResponse.parse(deleted.json);
    expect(deleted.json.deleted).toMatchObject({ users: 1, memories: 2, threads: 1, api_keys: 1 });

    const after = await everyRow(database);
    expect(naming(after, userId, names)).toEqual([]);
    // Another user's rows are as they were, but for the deleted person's id where they acted on them.
    const shared = (row: Row) => row.table.startsWith("pgboss.") || row.table === "public.rate_limit_windows";
    const othersBefore = before
      .filter((row) => row.owner !== userId && !shared(row))
      .map((row) => `${row.table} ${row.json.replaceAll(userId, DELETED_ACCOUNT)}`);
    const othersAfter = after.filter((row) => !shared(row)).map((row) => `${row.table} ${row.json}`);
    expect(othersAfter.sort()).toEqual(othersBefore.sort());

    expect(await call(me.GET, { path: "/api/v1/me", headers: bearer(key) })).toMatchObject({ status: 401 });
  });

  it("waits for its own request's rate-limit count, which far below the limit is not awaited, before deleting", async () => {
    const database = use();
    const userId = await createUser(database);
    // A database whose rate-limit writes are slow, as on a loaded pool: the request's count lands late.
    const slow: Database = {
      ...database,
      unbound: {
        ...database.unbound,
        rows: async (query) => {
          const text = new PgDialect().sqlToQuery(query).sql;
          if (text.includes("insert into rate_limit_windows")) await new Promise((done) => setTimeout(done, 300));
          return database.unbound.rows(query);
        },
      },
    };
    await sessionLimiter.take(slow, userId);
    // Far below the limit now: counted without waiting.
    expect(await sessionLimiter.take(slow, userId)).toEqual({ allowed: true });
    await deleteAccount(slow, userId);
    await new Promise((done) => setTimeout(done, 400));
    const left = await database.unbound.rows(sql`select 1 from rate_limit_windows where key = ${storedKey(userId)}`);
    expect(left).toEqual([]);
  });

  it("is refused to an API key and without the typed confirmation, and then deletes nothing", async () => {
    const database = use();
    routeHarness.database = database;
    const userId = await createUser(database);
    const ctx = contextFor(database, userId);
    await createMemory(ctx, { content: "Still here" });
    const { key } = await createApiKey(ctx, { name: "app", scopes: ["read", "write"] });
    routeHarness.principal = principalFor(userId);
    const before = await everyRow(database);

    const remove = (body: unknown, headers?: Record<string, string>) =>
      call(account.DELETE, { method: "DELETE", path: "/api/v1/account", body, headers });
    expect(await remove({ confirm: "delete my account" }, bearer(key))).toMatchObject({
      status: 403,
      json: { error: { code: "forbidden" } },
    });
    for (const body of [
      undefined,
      {},
      { confirm: "delete" },
      { confirm: "DELETE MY ACCOUNT" },
      { confirm: "delete my account", also: 1 },
    ]) {
      expect(await remove(body), JSON.stringify(body)).toMatchObject({
        status: 422,
        json: { error: { code: "unprocessable" } },
      });
    }
    const after = await everyRow(database);
    const withoutAccounting = (rows: Row[]) =>
      rows
        .filter((row) => !["public.rate_limit_windows", "public.api_keys", "public.audit_log"].includes(row.table))
        .map((row) => `${row.table} ${row.json}`)
        .sort();
    expect(withoutAccounting(after)).toEqual(withoutAccounting(before));
  });
});
