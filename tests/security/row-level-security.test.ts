import { type SQL, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { ensureThread, writeMessagesFrom } from "@/lib/chat/threads";
import { recordAdminView } from "@/lib/console/audit";
import { postgresErrorCode } from "@/lib/db/errors";
import {
  answerFeedback,
  apiKeys,
  auditLog,
  extractionRuns,
  instructionVersions,
  memories,
  memoryProposals,
  memoryRules,
  memoryVersions,
  messages,
  modelUsage,
  optimizerRuns,
  threads,
  userSettings,
  webhookDeliveries,
  webhookEndpoints,
} from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { changeInstructions } from "@/lib/memory/procedural";
import { propose, updateSettings } from "@/lib/memory/review";
import { createMemory, createRule, updateMemory } from "@/lib/memory/store";
import { recordUsage } from "@/lib/memory/usage";
import { createWebhook } from "@/lib/memory/webhooks";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

// The second wall: statements that name no user at all, run the way the memory core and the chat store run theirs.
describeEachDatabase("row-level security", (use, backend) => {
  let alice: MemoryContext;
  let bob: MemoryContext;
  beforeAll(async () => {
    alice = contextFor(use(), await createUser(use()));
    bob = contextFor(use(), await createUser(use()));
    for (const ctx of [alice, bob]) {
      const memory = await createMemory(ctx, { content: `${ctx.principal.userId} likes green tea` });
      await updateMemory(ctx, memory.id, { content: `${ctx.principal.userId} likes black tea` });
      await ensureThread(bindingFor(use(), ctx.principal.userId), "shared-thread-id");
      await writeMessagesFrom(
        bindingFor(use(), ctx.principal.userId),
        "shared-thread-id",
        [{ id: `${ctx.principal.userId}-m1`, role: "user", parts: [{ type: "text", text: "hello" }] }],
        0,
      );
      await createApiKey(ctx, { name: "key", scopes: ["read"] });
      await recordAdminView(ctx, { adminId: ctx.principal.userId, action: "view_memories", target: "all" });
      await use()
        .unbound.db.insert(extractionRuns)
        .values({
          userId: ctx.principal.userId,
          threadId: "shared-thread-id",
          namespace: ["users", ctx.principal.userId],
          status: "succeeded",
          fromPosition: 0,
          throughPosition: 1,
        });
      await recordUsage(ctx, {
        kind: "chat",
        model: "offline",
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        threadId: "shared-thread-id",
      });
      await createWebhook(
        ctx,
        { url: "https://hooks.example.com/in", events: ["memory.created"] },
        { allowPrivate: false },
      );
      await createMemory(ctx, { content: `${ctx.principal.userId} takes the night train` });
      await createRule(ctx, { text: "never remember my health", terms: ["health"] });
      await updateSettings(ctx, { review: "all" });
      await propose(ctx, {
        op: "delete",
        memoryId: memory.id,
        namespace: ["users", ctx.principal.userId],
        reason: "test",
      });
      await use()
        .unbound.db.insert(answerFeedback)
        .values({
          userId: ctx.principal.userId,
          messageId: `${ctx.principal.userId}-m1`,
          threadId: "shared-thread-id",
          rating: "down",
        });
      await changeInstructions(ctx, {
        text: "Use metric units.",
        changedBy: { type: "user", id: ctx.principal.userId },
        reason: "test",
      });
      await use().unbound.db.insert(optimizerRuns).values({ userId: ctx.principal.userId, status: "succeeded" });
    }
  });

  it("switches a bound transaction to the unprivileged role", async () => {
    const [row] = await asUser(alice, (unit) =>
      unit.rows<{ role: string; user: string }>(
        sql`select current_user as role, current_setting('app.user_id') as user`,
      ),
    );
    expect(row).toEqual({ role: "memory_ledger_app", user: alice.principal.userId });
    const [after] = await use().unbound.rows<{ role: string }>(sql`select current_user as role`);
    expect(after?.role).not.toBe("memory_ledger_app");
  });

  it("sets further transaction-local parameters with the binding, also when joining an open unit", async () => {
    const setting = async (unit: Pick<UnitOfWork, "rows">) =>
      (await unit.rows<{ value: string }>(sql`select current_setting('pg_trgm.word_similarity_threshold') as value`))[0]
        ?.value;
    const values = await asUser(
      alice,
      async (outer) => {
        const first = await setting(outer);
        const joined = await asUser({ ...alice, unit: outer }, setting, { "pg_trgm.word_similarity_threshold": "0.5" });
        return [first, joined];
      },
      { "pg_trgm.word_similarity_threshold": "0.35" },
    );
    expect(values).toEqual(["0.35", "0.5"]);
    // Back to the default once the unit ends; on Citus a coordinator session may never have loaded pg_trgm (its
    // operators run on the workers), so there the parameter reads as the empty placeholder the SET LOCAL left.
    expect(backend === "citus" ? ["0.6", ""] : ["0.6"]).toContain(await setting(use().unbound));
  });

  it("refuses to run work for another user inside an open unit, and leaves that unit bound to its own user", async () => {
    const outcome = await asUser(alice, async (unit) => {
      const refused = await asUser({ ...bob, unit }, async () => "ran").catch((error: Error) => error.message);
      const [row] = await unit.rows<{ user: string }>(sql`select current_setting('app.user_id') as user`);
      return { refused, boundTo: row?.user };
    });
    expect(outcome.refused).toMatch(/Refusing to run work for user/);
    expect(outcome.boundTo).toBe(alice.principal.userId);
  });

  it("refuses a second unit opened inside one without being handed it (on PGlite it would wait forever)", async () => {
    const refused = await asUser(alice, () => asUser(alice, async () => "nested")).catch(
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/already open here/);
  });

  it("runs after-commit work only once the unit commits, and never when it rolls back", async () => {
    const events: string[] = [];
    await asUser(alice, async (unit) => {
      unit.afterCommit(async () => {
        const [row] = await use().unbound.rows<{ title: string | null }>(
          sql`select title from threads where user_id = ${alice.principal.userId}::uuid and id = 'shared-thread-id'`,
        );
        events.push(`after: ${row?.title}`);
      });
      await unit.db.update(threads).set({ title: "committed title" }).where(sql`${threads.id} = 'shared-thread-id'`);
      events.push("work done");
    });
    await asUser(alice, async (unit) => {
      unit.afterCommit(() => events.push("after a rollback"));
      throw new Error("roll back");
    }).catch(() => undefined);
    expect(events).toEqual(["work done", "after: committed title"]);
  });

  it("shows a statement without a user condition only the bound user's rows", async () => {
    const seen = await asUser(alice, async ({ db: tx }) => ({
      memories: await tx.select({ userId: memories.userId }).from(memories),
      versions: await tx.select({ userId: memoryVersions.userId }).from(memoryVersions),
      threads: await tx.select({ userId: threads.userId }).from(threads),
      messages: await tx.select({ userId: messages.userId }).from(messages),
      runs: await tx.select({ userId: extractionRuns.userId }).from(extractionRuns),
      keys: await tx.select({ userId: apiKeys.userId }).from(apiKeys),
      audit: await tx.select({ userId: auditLog.userId }).from(auditLog),
      usage: await tx.select({ userId: modelUsage.userId }).from(modelUsage),
      webhooks: await tx.select({ userId: webhookEndpoints.userId }).from(webhookEndpoints),
      deliveries: await tx.select({ userId: webhookDeliveries.userId }).from(webhookDeliveries),
      proposals: await tx.select({ userId: memoryProposals.userId }).from(memoryProposals),
      rules: await tx.select({ userId: memoryRules.userId }).from(memoryRules),
      settings: await tx.select({ userId: userSettings.userId }).from(userSettings),
      feedback: await tx.select({ userId: answerFeedback.userId }).from(answerFeedback),
      instructions: await tx.select({ userId: instructionVersions.userId }).from(instructionVersions),
      optimizerRuns: await tx.select({ userId: optimizerRuns.userId }).from(optimizerRuns),
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
    expect(owners(seen.runs)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.keys)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.audit)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.usage)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.webhooks)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.deliveries)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.proposals)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.rules)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.settings)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.feedback)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.instructions)).toEqual(new Set([alice.principal.userId]));
    expect(owners(seen.optimizerRuns)).toEqual(new Set([alice.principal.userId]));
    const terms = seen.terms as unknown as { rows?: unknown[] } | unknown[];
    expect(owners(Array.isArray(terms) ? terms : (terms.rows ?? []))).toEqual(new Set([alice.principal.userId]));

    const everyone = await use().unbound.db.select({ userId: memories.userId }).from(memories);
    expect(new Set(everyone.map((row) => row.userId)).size).toBeGreaterThanOrEqual(2);
  });

  it("lets a bound transaction read own_memories, the search's view past the policy, only as its user's rows", async () => {
    const owners = await asUser(alice, async (unit) => {
      const bound = await unit.rows<{ user_id: string }>(sql`select distinct user_id from own_memories`);
      await unit.setLocal({ "app.user_id": "" });
      const unbound = await unit.rows<{ user_id: string }>(sql`select distinct user_id from own_memories`);
      return { bound: bound.map((row) => row.user_id), unbound: unbound.map((row) => row.user_id) };
    });
    expect(owners).toEqual({ bound: [alice.principal.userId], unbound: [] });
    const writes = [
      sql`update own_memories set text = 'rewritten through the view'`,
      sql`delete from own_memories`,
      sql`insert into own_memories (user_id, namespace, key, kind, content, text, content_hash)
          values (${bob.principal.userId}::uuid, '{users}', 'planted', 'memory', '{}', 'planted', 'x')`,
    ];
    for (const write of writes) {
      const error = await asUser(alice, (unit) => unit.rows(write)).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      // Citus refuses a write through a view of its tables before it checks the privilege.
      expect(backend === "citus" ? ["42501", "0A000"] : ["42501"]).toContain(postgresErrorCode(error));
    }
    const planted = await use().unbound.rows(
      sql`select 1 from memories where text like '%through the view' or key = 'planted'`,
    );
    expect(planted).toEqual([]);
  });

  it("confines an unconditioned update or delete to the bound user's rows", async () => {
    const changed = await asUser(alice, ({ db: tx }) =>
      tx.update(threads).set({ title: "renamed by a careless statement" }).returning({ userId: threads.userId }),
    );
    expect(changed.map((row) => row.userId)).toEqual([alice.principal.userId]);
    const deleted = await asUser(alice, ({ db: tx }) => tx.delete(messages).returning({ userId: messages.userId }));
    expect(deleted.map((row) => row.userId)).toEqual([alice.principal.userId]);
    const [bobThread] = await use()
      .unbound.db.select({ title: threads.title })
      .from(threads)
      .where(sql`${threads.userId} = ${bob.principal.userId}::uuid`);
    expect(bobThread?.title).toBeNull();
    const bobMessages = await use()
      .unbound.db.select()
      .from(messages)
      .where(sql`${messages.userId} = ${bob.principal.userId}::uuid`);
    expect(bobMessages).toHaveLength(1);
  });

  it("refuses a ledger row for another user from a bound transaction", async () => {
    const attempt = asUser(alice, ({ db: tx }) =>
      tx
        .insert(modelUsage)
        .values({ userId: bob.principal.userId, kind: "chat", model: "offline", inputTokens: 1, outputTokens: 1 }),
    );
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(postgresErrorCode(error)).toBe("42501");
  });

  it("refuses a webhook endpoint for another user from a bound transaction", async () => {
    const attempt = asUser(alice, ({ db: tx }) =>
      tx.insert(webhookEndpoints).values({
        userId: bob.principal.userId,
        url: "https://evil.example.com",
        events: ["memory.created"],
        secret: "x",
      }),
    );
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(postgresErrorCode(error)).toBe("42501");
  });

  it("refuses a proposal, rule or setting for another user from a bound transaction", async () => {
    // One at a time: each is a transaction, and a refusal must be caught when it happens.
    const attempts = [
      () =>
        asUser(alice, ({ db: tx }) =>
          tx.insert(memoryRules).values({ userId: bob.principal.userId, text: "planted", terms: [] }),
        ),
      () =>
        asUser(alice, ({ db: tx }) => tx.insert(userSettings).values({ userId: bob.principal.userId, review: "off" })),
      () =>
        asUser(alice, ({ db: tx }) =>
          tx.insert(memoryProposals).values({
            userId: bob.principal.userId,
            op: "insert",
            namespace: ["users", bob.principal.userId],
            sourceType: "api",
            actorType: "api",
            actorId: "planted",
            status: "pending",
          }),
        ),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(postgresErrorCode(error)).toBe("42501");
    }
  });

  it("refuses feedback, instructions or an optimizer run for another user from a bound transaction", async () => {
    const bobId = bob.principal.userId;
    // One at a time, as above.
    const attempts = [
      () =>
        asUser(alice, ({ db: tx }) =>
          tx
            .insert(answerFeedback)
            .values({ userId: bobId, messageId: `${bobId}-m1`, threadId: "shared-thread-id", rating: "up" }),
        ),
      () =>
        asUser(alice, ({ db: tx }) =>
          tx
            .insert(instructionVersions)
            .values({ userId: bobId, version: 9, text: "obey", actorType: "user", actorId: bobId, reason: "planted" }),
        ),
      () => asUser(alice, ({ db: tx }) => tx.insert(optimizerRuns).values({ userId: bobId, status: "running" })),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(postgresErrorCode(error)).toBe("42501");
    }
  });

  it("refuses to write a row for another user from a bound transaction", async () => {
    const attempt = asUser(alice, ({ db: tx }) =>
      tx.insert(threads).values({ userId: bob.principal.userId, id: "planted" }),
    );
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(postgresErrorCode(error)).toBe("42501");
    const planted = await use().unbound.db.select().from(threads).where(sql`${threads.id} = 'planted'`);
    expect(planted).toEqual([]);
  });

  it("reads no email, name or password hash, not even its own, no OAuth link, and changes no user row", async () => {
    const own = alice.principal.userId;
    const outcome = (query: SQL) =>
      asUser(alice, (unit) => unit.rows<Record<string, unknown>>(query)).then(
        (rows) => rows,
        (caught: unknown) => postgresErrorCode(caught),
      );
    expect(await outcome(sql`select password_hash from users`)).toBe("42501");
    expect(await outcome(sql`select email, name from users where id = ${own}::uuid`)).toBe("42501");
    expect(await outcome(sql`select * from accounts`)).toBe("42501");
    expect(await outcome(sql`update users set is_admin = true where id = ${own}::uuid`)).toBe("42501");
    // Whether its own user still exists is all it may ask (the statistics triggers ask it); others' ids stay unseen.
    expect(await outcome(sql`select id from users`)).toEqual([{ id: own }]);
    // On Citus the role holds DELETE on users for the shard locks of api_keys writes; no policy lets it delete a row.
    const deleted = await outcome(sql`delete from users returning id`);
    expect(backend === "citus" ? [[]] : ["42501"]).toContainEqual(deleted);
    expect(
      await use().unbound.rows(sql`select id from users where id in (${own}::uuid, ${bob.principal.userId}::uuid)`),
    ).toHaveLength(2);
  });
});
