import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { type Database, openPostgres, resultRows } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { createMemory, createMemoryBatch } from "@/lib/memory/store";
import { contextFor, createUser, topicEmbeddingModel, withEmbedding } from "../memory/support";
import { describeEachDatabase, openMigratedPglite } from "../support/databases";

describeEachDatabase("database layer", (use, backend) => {
  it("applies every migration and records them once", async () => {
    const rows = await use().unbound.rows<{ count: number }>(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    const journal = JSON.parse(readFileSync(path.resolve("drizzle/meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    expect(rows[0]?.count).toBe(journal.entries.length);
  });

  it("creates pg_trgm and records whether pgvector exists", async () => {
    const database = use();
    const extensions = await database.unbound.rows<{ extname: string }>(sql`select extname from pg_extension`);
    const names = extensions.map((row) => row.extname);
    expect(names).toContain("pg_trgm");
    expect(database.vector).toBe(names.includes("vector"));
    if (backend === "pglite") expect(database.vector).toBe(true);
    const [meta] = await database.unbound.rows<{ value: unknown }>(
      sql`select value from app_meta where key = 'vector'`,
    );
    expect(meta?.value).toBe(database.vector);
  });

  it("keeps the database usable for queries across the schema", async () => {
    const [row] = await use().unbound.rows<{ similarity: number }>(
      sql`select similarity('dark mode', 'drak mode') as similarity`,
    );
    expect(row?.similarity).toBeGreaterThan(0.2);
  });

  it("prepares the builder's and raw parameterised statements on their connection, each planned for its values", async () => {
    const { prepared, mode } = await use().unbound.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.email, "nobody@example.com"));
      await tx.execute(sql`select ${"raw"}::text as value`);
      const statements = resultRows<{ statement: string }>(
        await tx.execute(sql`select statement from pg_prepared_statements`),
      );
      const [setting] = resultRows<{ mode: string }>(
        await tx.execute(sql`select current_setting('plan_cache_mode') as mode`),
      );
      return { prepared: statements.map((row) => row.statement), mode: setting?.mode };
    });
    expect(prepared).toEqual(
      expect.arrayContaining([
        expect.stringContaining('from "users" where "users"."email" = $1'),
        expect.stringContaining("select $1::text as value"),
      ]),
    );
    expect(mode).toBe("force_custom_plan");
  });

  it.runIf(backend === "pglite")(
    "a failed prepared statement leaves PGlite usable, and a rolled-back transaction does not lose a statement",
    async () => {
      const database = use();
      // drizzle wraps the driver's error: its cause is PGlite's.
      const failure = (work: Promise<unknown>) =>
        work.then(
          () => "no failure",
          (error: { cause?: Error }) => String(error.cause?.message),
        );
      const count = sql`select count(*)::int as n from users where email = ${"nobody@example.com"}`;
      expect(await failure(database.unbound.rows(sql`select ${1}::int / 0 as never`))).toMatch(/division by zero/);
      expect(await failure(database.unbound.rows(sql`select from_nowhere(${1})`))).toMatch(/from_nowhere/);
      expect(
        await failure(
          database.unbound.db.transaction(async (tx) => {
            await tx.execute(count);
            await tx.execute(sql`select ${"x"}::int`);
          }),
        ),
      ).toMatch(/invalid input syntax/);
      expect(await database.unbound.rows(count)).toEqual([{ n: 0 }]);
      expect(await database.unbound.rows(sql`select ${2}::int * ${21}::int as answer`)).toEqual([{ answer: 42 }]);
    },
  );

  it("keeps a vector of the bundled encoder and its row's keys in the row, not in the TOAST table a search reads per memory", async (test) => {
    const database = use();
    if (!database.vector) return test.skip();
    const storage = await database.unbound.rows<{ name: string; storage: string }>(sql`
      select attname as name, attstorage as storage from pg_attribute
      where attrelid = 'memory_embeddings'::regclass and attname in ('embedding', 'content_hash', 'model')
      order by attname`);
    expect(storage).toEqual([
      { name: "content_hash", storage: "m" },
      { name: "embedding", storage: "m" },
      { name: "model", storage: "m" },
    ]);
    // The coordinator's table holds no rows on Citus (its shards do): the setting above is what carries there.
    if (database.kind === "citus") return;
    const ctx = contextFor(database, await createUser(database));
    const { created } = await createMemoryBatch(ctx, [{ content: "A fact with a vector" }]);
    const vector = `[${Array.from({ length: 512 }, (_, index) => ((index % 7) - 3) / 7).join(",")}]`;
    await database.unbound.rows(sql`
      insert into memory_embeddings (user_id, memory_id, model, embedding, content_hash)
      values (${ctx.principal.userId}::uuid, ${created[0]?.memory.id}::uuid, 'openai:text-embedding-3-small', ${vector}::vector,
              ${created[0]?.memory.contentHash})`);
    const [toast] = await database.unbound.rows<{ bytes: number }>(sql`
      select pg_relation_size(reltoastrelid)::int as bytes from pg_class where oid = 'memory_embeddings'::regclass`);
    expect(toast?.bytes).toBe(0);
  });

  it.runIf(backend === "pglite")(
    "a prepared statement's own parsers take over their types only, for that statement only",
    async () => {
      const { connection } = use();
      if (connection.kind !== "pglite") throw new Error("expected PGlite");
      const text = "select $1::int as n, $2::timestamptz as at";
      const values = [7, "2026-01-02T03:04:05Z"];
      const own = await connection.client.query<{ n: unknown; at: unknown }>(text, values, {
        parsers: { 1184: (value: string) => `as sent: ${value}` },
      });
      expect(own.rows).toEqual([{ n: 7, at: "as sent: 2026-01-02 03:04:05+00" }]);
      const plain = await connection.client.query<{ n: unknown; at: unknown }>(text, values);
      expect(plain.rows).toEqual([{ n: 7, at: new Date("2026-01-02T03:04:05Z") }]);
    },
  );

  it.runIf(backend === "pglite")(
    "runs a prepared statement in one exchange with PGlite, after one to prepare it",
    async () => {
      // A PGlite of its own: with many statements prepared before, the first call would also close the oldest.
      const database = await openMigratedPglite();
      const { connection } = database;
      if (connection.kind !== "pglite") throw new Error("expected PGlite");
      const { client } = connection;
      const exchange = client.execProtocolStream.bind(client);
      let exchanges = 0;
      client.execProtocolStream = (...args: Parameters<typeof exchange>) => {
        exchanges++;
        return exchange(...args);
      };
      try {
        const text = "select $1::int * 2 as doubled";
        const counted = async (value: number) => {
          exchanges = 0;
          const { rows } = await client.query<{ doubled: number }>(text, [value]);
          return { rows, exchanges };
        };
        expect(await counted(20)).toEqual({ rows: [{ doubled: 40 }], exchanges: 2 });
        expect(await counted(21)).toEqual({ rows: [{ doubled: 42 }], exchanges: 1 });
      } finally {
        await database.close();
      }
    },
  );

  it.runIf(backend === "pglite")("keeps a bounded number of statements prepared on PGlite", async () => {
    const database = use();
    for (let width = 1; width <= 300; width++) {
      const values = Array.from({ length: width }, (_, index) => sql`${index}::int`);
      const [row] = await database.unbound.rows<{ total: number }>(
        sql`select (${sql.join(values, sql` + `)})::int as total`,
      );
      expect(row?.total).toBe((width * (width - 1)) / 2);
    }
    const [prepared] = await database.unbound.rows<{ n: number }>(
      sql`select count(*)::int as n from pg_prepared_statements`,
    );
    expect(prepared?.n).toBeLessThanOrEqual(256);
    expect(prepared?.n).toBeGreaterThan(200);
  });

  /**
   * Work as a new user on a handle of one connection, so every statement is prepared where the next one runs: a new
   * PGlite (one connection by nature, and no earlier test's statements), or one connection to the server.
   */
  async function onOneConnection(work: (ctx: MemoryContext, database: Database) => Promise<void>) {
    const connection = use().connection;
    const database =
      connection.kind === "pglite" ? await openMigratedPglite() : await openPostgres(connection.url, { max: 1 });
    try {
      await work(contextFor(database, await createUser(database)), database);
    } finally {
      await database.close();
    }
  }

  /** How often the connection's prepared statements like `pattern` were planned generically and for their values. */
  async function plansOf(database: Database, pattern: string) {
    const [plans] = await database.unbound.rows<{ generic: number; custom: number }>(sql`
      select sum(generic_plans)::int as generic, sum(custom_plans)::int as custom
      from pg_prepared_statements where statement like ${pattern}`);
    return plans;
  }

  it("plans a batch's multi-row inserts once per connection, not again for every batch", () =>
    onOneConnection(async (ctx, database) => {
      for (let batch = 0; batch < 3; batch++) {
        const items = Array.from({ length: 40 }, (_, item) => ({ content: `Batch ${batch} fact ${item} about tea` }));
        expect((await createMemoryBatch(ctx, items)).created).toHaveLength(40);
      }
      const plans = await database.unbound.rows<{ statement: string; generic: number; custom: number }>(sql`
        select left(statement, 40) as statement, generic_plans::int as generic, custom_plans::int as custom
        from pg_prepared_statements where statement like 'insert into "memor%' order by statement`);
      expect(plans).toEqual([
        { statement: expect.stringContaining('insert into "memories"'), generic: 3, custom: 0 },
        { statement: expect.stringContaining('insert into "memory_versions"'), generic: 3, custom: 0 },
      ]);
      // The settings were the batch's own: later statements of the connection are planned for their values again.
      const [mode] = await database.unbound.rows<{ mode: string }>(
        sql`select current_setting('plan_cache_mode') as mode`,
      );
      expect(mode?.mode).toBe("force_custom_plan");
    }));

  // Citus cannot route a generic plan of it: there it is planned per call (lib/memory/search/search.ts).
  it.skipIf(backend === "citus")("plans a search's ranking statement once per connection, not on every search", () =>
    onOneConnection(async (ctx, database) => {
      const items = Array.from({ length: 20 }, (_, item) => ({
        content: `Fact ${item} about green tea and the garden`,
      }));
      await createMemoryBatch(ctx, items);
      for (const query of ["green tea", "the garden", "what about tea?"]) {
        expect(await searchMemories(ctx, { query, mode: "lexical" })).not.toHaveLength(0);
      }
      expect(await plansOf(database, "%from own_memories%")).toEqual({ generic: 3, custom: 0 });
    }),
  );

  // Only PGlite, where the planner runs on the server's own thread (lib/db/unit-of-work.ts, takeWriterLock).
  it.runIf(backend === "pglite")(
    "plans a single write's statements once per connection on PGlite, in its unit only",
    () =>
      onOneConnection(async (ctx, database) => {
        for (const content of ["I drink green tea", "I grow tomatoes", "I sail a small boat"]) {
          await createMemory(ctx, { content });
        }
        expect(await plansOf(database, 'insert into "memories"%')).toEqual({ generic: 3, custom: 0 });
        expect(await plansOf(database, 'insert into "memory_versions"%')).toEqual({ generic: 3, custom: 0 });
        const [mode] = await database.unbound.rows<{ mode: string }>(
          sql`select current_setting('plan_cache_mode') as mode`,
        );
        expect(mode?.mode).toBe("force_custom_plan");
      }),
  );

  // Only PGlite plans it once per connection (lib/memory/search/search.ts, vectorPlanning).
  it.runIf(backend === "pglite")(
    "plans a vector search's statement once per connection on PGlite, and a caller's unit plans per call again after it",
    () =>
      onOneConnection(async (plain, database) => {
        const ctx = withEmbedding(plain, topicEmbeddingModel());
        await createMemoryBatch(ctx, [{ content: "a cat" }, { content: "a car" }, { content: "an espresso" }]);
        for (const query of ["kitten", "vehicle", "coffee"]) {
          expect(await searchMemories(ctx, { query, mode: "vector" })).not.toHaveLength(0);
        }
        expect(await plansOf(database, "%<=>%")).toEqual({ generic: 3, custom: 0 });
        const mode = await asUser(ctx, async (unit) => {
          await searchMemories({ ...ctx, unit }, { query: "kitten", mode: "vector" });
          const [setting] = await unit.rows<{ mode: string }>(sql`select current_setting('plan_cache_mode') as mode`);
          return setting?.mode;
        });
        expect(mode).toBe("force_custom_plan");
      }),
  );
});
