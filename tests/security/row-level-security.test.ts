import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { ensureThread, writeMessagesFrom } from "@/lib/chat/threads";
import { postgresErrorCode } from "@/lib/db/errors";
import { asUser, asUserDatabase } from "@/lib/db/principal";
import { memories, memoryVersions, messages, threads } from "@/lib/db/schema";
import { createMemory, type MemoryContext, updateMemory } from "@/lib/memory";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

// The second wall: statements that name no user at all, run the way the memory core and the chat store run theirs.
describeEachDatabase("row-level security", (use) => {
  let alice: MemoryContext;
  let bob: MemoryContext;
  beforeAll(async () => {
    alice = contextFor(use(), await createUser(use()));
    bob = contextFor(use(), await createUser(use()));
    for (const ctx of [alice, bob]) {
      const memory = await createMemory(ctx, { content: `${ctx.principal.userId} likes green tea` });
      await updateMemory(ctx, memory.id, { content: `${ctx.principal.userId} likes black tea` });
      await ensureThread(use().db, ctx.principal.userId, "shared-thread-id");
      await writeMessagesFrom(
        use().db,
        ctx.principal.userId,
        "shared-thread-id",
        [{ id: `${ctx.principal.userId}-m1`, role: "user", parts: [{ type: "text", text: "hello" }] }],
        0,
      );
    }
  });

  it("switches a bound transaction to the unprivileged role", async () => {
    const [row] = await asUserDatabase(use(), alice.principal.userId, (tx) =>
      tx.rows<{ role: string; user: string }>(sql`select current_user as role, current_setting('app.user_id') as user`),
    );
    expect(row).toEqual({ role: "memory_ledger_app", user: alice.principal.userId });
    const [after] = await use().rows<{ role: string }>(sql`select current_user as role`);
    expect(after?.role).not.toBe("memory_ledger_app");
  });

  it("sets further transaction-local parameters with the binding, also when already bound", async () => {
    const setting = (tx: Parameters<Parameters<typeof asUserDatabase>[2]>[0]) =>
      tx.rows<{ value: string }>(sql`select current_setting('pg_trgm.word_similarity_threshold') as value`);
    const values = await asUserDatabase(
      use(),
      alice.principal.userId,
      async (outer) => {
        const first = (await setting(outer))[0]?.value;
        const nested = await asUserDatabase(
          outer,
          alice.principal.userId,
          async (inner) => (await setting(inner))[0]?.value,
          {
            "pg_trgm.word_similarity_threshold": "0.5",
          },
        );
        return [first, nested];
      },
      { "pg_trgm.word_similarity_threshold": "0.35" },
    );
    expect(values).toEqual(["0.35", "0.5"]);
    expect((await setting(use()))[0]?.value).toBe("0.6");
  });

  it("shows a statement without a user condition only the bound user's rows", async () => {
    const seen = await asUser(use().db, alice.principal.userId, async (tx) => ({
      memories: await tx.select({ userId: memories.userId }).from(memories),
      versions: await tx.select({ userId: memoryVersions.userId }).from(memoryVersions),
      threads: await tx.select({ userId: threads.userId }).from(threads),
      messages: await tx.select({ userId: messages.userId }).from(messages),
      terms: await tx.execute(sql`select user_id from memory_terms`),
    }));
    const owners = (rows: Iterable<unknown>) =>
      new Set(
        [...rows].map(
          (row) => (row as { userId?: string; user_id?: string }).userId ?? (row as { user_id: string }).user_id,
        ),
      );
    expect(owners(seen.memories)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.versions)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.threads)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.messages)).toEqual(new Set([alice.principal.userId]));
    const terms = seen.terms as unknown as { rows?: unknown[] } | unknown[];
    expect(owners(Array.isArray(terms) ? terms : (terms.rows ?? []))).toEqual(new Set([alice.principal.userId]));

    const everyone = await use().db.select({ userId: memories.userId }).from(memories);
    expect(new Set(everyone.map((row) => row.userId)).size).toBeGreaterThanOrEqual(2);
  });

  it("confines an unconditioned update or delete to the bound user's rows", async () => {
    const changed = await asUser(use().db, alice.principal.userId, (tx) =>
      tx.update(threads).set({ title: "renamed by a careless statement" }).returning({ userId: threads.userId }),
    );
    expect(changed.map((row) => row.userId)).toEqual([alice.principal.userId]);
    const deleted = await asUser(use().db, alice.principal.userId, (tx) =>
      tx.delete(messages).returning({ userId: messages.userId }),
    );
    expect(deleted.map((row) => row.userId)).toEqual([alice.principal.userId]);
    const [bobThread] = await use()
      .db.select({ title: threads.title })
      .from(threads)
      .where(sql`${threads.userId} = ${bob.principal.userId}::uuid`);
    expect(bobThread?.title).toBeNull();
    const bobMessages = await use()
      .db.select()
      .from(messages)
      .where(sql`${messages.userId} = ${bob.principal.userId}::uuid`);
    expect(bobMessages).toHaveLength(1);
  });

  it("refuses to write a row for another user from a bound transaction", async () => {
    const attempt = asUser(use().db, alice.principal.userId, (tx) =>
      tx.insert(threads).values({ userId: bob.principal.userId, id: "planted" }),
    );
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(postgresErrorCode(error)).toBe("42501");
    const planted = await use().db.select().from(threads).where(sql`${threads.id} = 'planted'`);
    expect(planted).toEqual([]);
  });
});
