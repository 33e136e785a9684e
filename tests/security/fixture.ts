import { MockLanguageModelV4 } from "ai/test";
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { renameThread } from "@/lib/chat/threads";
import type { Database } from "@/lib/db/client";
import { extractionRuns, memoryAccess, modelUsage, threads } from "@/lib/db/schema";
import { putItem } from "@/lib/langgraph/store";
import type { MemoryContext } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { changeInstructions, createFeedback } from "@/lib/memory/procedural";
import { propose, updateSettings } from "@/lib/memory/review";
import { createMemory, createRule, deleteMemory, purgeMemory } from "@/lib/memory/store";
import { createWebhook, listDeliveries, WEBHOOK_EVENT_TYPES } from "@/lib/memory/webhooks";
import { scriptedManager } from "../extraction/support";
import { bindingFor, contextFor } from "../memory/support";
import { harness, principalFor } from "./harness";
import { chat, rest, say } from "./surfaces";

/** In every piece of A's data, and in nothing B sends: finding it in a response means A's data leaked. */
export const CANARY = "qz7731";
/** A's token count on the cost ledger: no answer to B may contain it. */
export const A_TOKENS = 77_317_731;
/** A fact A and B both state, in the words A's chat stores it ("User prefers …"). */
export const SHARED_FACT = "window seats on trains";
export const SHARED_MEMORY = `User prefers ${SHARED_FACT}`;
/** Canary-free facts of A's (one active, one deleted) that B's extraction states word for word. */
export const A_PLAIN_ACTIVE = "User drinks oolong tea";
export const A_PLAIN_DELETED = "User's old bike was green";

/**
 * User ids are uuids, so one can never be a string prefix of the other; these two are as close as uuids get (the
 * same 34 characters, then `a1` and `10`), with letters so that upper-casing changes them. The prefix cases live
 * where callers choose names: A's namespace `team/1` against B's `team/10`, A's thread `t1` against B's `t10`.
 */
export const A_ID = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1";
export const B_ID = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaa10";

/** Relative namespaces A stores memories under, each one a shape an attacker might try to match loosely. */
export const A_NAMESPACES = [
  ["team", "1"],
  ["1"],
  ["a%"],
  ["a_b"],
  ["a*"],
  ["a\\b"],
  ["caf\u00e9"],
  ["users", B_ID],
] as const;

export interface Fixture {
  a: {
    id: string;
    memories: { active: string; deleted: string; purged: string; profile: string; item: string };
    /** A's memories under A_NAMESPACES, one each. */
    namespaced: string[];
    /** A's chat (rename/delete/read attacks aim here). */
    threadId: string;
    /** A's other chat, whose id B then uses for a chat of B's own. */
    sharedThreadId: string;
    messageId: string;
    /** One of A's assistant answers, which A rated. */
    answerId: string;
    runs: { succeeded: string; failed: string };
    /** A's pending proposal (to delete A's active memory) and A's rule. */
    proposal: string;
    rule: string;
    key: { id: string; secret: string; prefix: string };
    revokedKeyId: string;
    /** A's webhook (subscribed to everything, so its log holds A's memories) and one of its deliveries. */
    webhook: { id: string; deliveryId: string; secret: string };
    /** Strings that must never appear in a response to B unless B sent them (message and thread ids are chosen
     * by clients, so B may legitimately reuse them). */
    secrets: string[];
  };
  b: {
    id: string;
    key: { id: string; secret: string };
    memoryId: string;
    threadId: string;
  };
}

async function insertUser(database: Database, id: string, name: string) {
  await database.unbound.rows(sql`insert into users (id, name) values (${id}::uuid, ${name})`);
}

/** A chat turn as the signed-in user, read to its end (so the answer and its access log are stored). */
async function chatAs(userId: string, threadId: string, messageId: string, text: string) {
  harness.principal = principalFor(userId);
  harness.auth = "session";
  harness.apiKey = null;
  const answer = await chat(say(threadId, messageId, text));
  expect(answer.status, text).toBe(200);
}

const failingModel = () =>
  new MockLanguageModelV4({
    doGenerate: async () => {
      throw new Error(`provider down while reading ${CANARY}`);
    },
  });

/**
 * A owns memories (active, deleted, purged, a profile, a LangGraph item, one in each tricky namespace), two chats
 * with an access log, a succeeded and a failed extraction run, an API key that has been used and a revoked one. B
 * owns an API key, a memory in the sibling namespace `team/10` and a chat. Everything of A's carries CANARY, except
 * three plain facts B states word for word.
 */
export async function seedFixture(database: Database): Promise<Fixture> {
  await insertUser(database, A_ID, `Alice ${CANARY}`);
  await insertUser(database, B_ID, "Bob");
  const a: MemoryContext = contextFor(database, A_ID);
  const aWebhook = await createWebhook(
    bindingFor(database, A_ID),
    { url: `https://hooks.example.com/${CANARY}`, events: [...WEBHOOK_EVENT_TYPES] },
    { allowPrivate: false },
  );

  await chatAs(A_ID, "t1", "m-a-1", `Remember that my locker code is ${CANARY}`);
  await chatAs(A_ID, "t1", "m-a-2", "What is my locker code?");
  // A fact of A's without the canary: B states it too, and purging B's copy must leave A's copies untouched.
  await chatAs(A_ID, "t1", "m-a-4", `Remember that I prefer ${SHARED_FACT}`);
  await chatAs(A_ID, "shared-1", "m-a-3", `Note that my bike lock is ${CANARY}-bike`);
  // Titles show in thread lists and run cards: they must carry the canary too.
  await renameThread(bindingFor(database, A_ID), "t1", `Locker ${CANARY}`);
  await renameThread(bindingFor(database, A_ID), "shared-1", `Bike ${CANARY}`);

  const active = await createMemory(a, {
    content: `Alice's locker plan ${CANARY}`,
    namespace: ["team", "1"],
    key: "plan",
    metadata: { tag: CANARY },
  });
  const deleted = await createMemory(a, { content: `Alice's old pin ${CANARY}`, namespace: ["team", "1"] });
  await deleteMemory(a, deleted.id);
  const plainActive = await createMemory(a, { content: A_PLAIN_ACTIVE });
  const plainDeleted = await createMemory(a, { content: A_PLAIN_DELETED });
  await deleteMemory(a, plainDeleted.id);
  const purged = await createMemory(a, { content: `Alice's purged secret ${CANARY}` });
  await purgeMemory(a, purged.id);
  const profile = await createMemory(a, { kind: "profile", content: { name: `Alice ${CANARY}`, city: "Lisbon" } });
  await putItem(a, { namespace: ["prefs"], key: "editor", value: { content: `Alice edits with ${CANARY}` } });
  const item = await database.unbound.rows<{ id: string }>(
    sql`select id from memories where user_id = ${A_ID}::uuid and key = 'editor'`,
  );
  const namespaced: string[] = [];
  for (const namespace of A_NAMESPACES) {
    const memory = await createMemory(a, {
      content: `Alice's note in ${namespace.join("/")} ${CANARY}`,
      namespace: [...namespace],
    });
    namespaced.push(memory.id);
  }

  const extractor = { ...a, actor: { type: "extractor" as const, id: "scripted" } };
  const succeeded = await runExtraction(
    {
      ctx: extractor,
      modelId: "scripted",
      model: scriptedManager([
        {
          op: "insert",
          kind: "memory",
          content: `User's locker code is ${CANARY}`,
          messageId: "m-a-1",
          quote: `my locker code is ${CANARY}`,
        },
        { op: "insert", kind: "memory", content: SHARED_MEMORY, messageId: "m-a-4", quote: `prefer ${SHARED_FACT}` },
      ]),
    },
    { threadId: "t1", jobId: "job-a-1", finalAttempt: true },
  );
  if (succeeded.status !== "succeeded") throw new Error(`A's extraction run did not succeed: ${succeeded.reason}`);
  await expect(
    runExtraction(
      { ctx: extractor, modelId: "failing", model: failingModel() },
      { threadId: "shared-1", jobId: "job-a-2", finalAttempt: true },
    ),
  ).rejects.toThrow();
  const [failed] = await database.unbound.db
    .select({ id: extractionRuns.id })
    .from(extractionRuns)
    .where(and(eq(extractionRuns.userId, A_ID), eq(extractionRuns.status, "failed")));

  // Today and on a fixed day, so both the default range and an explicit one would show it if they leaked.
  for (const createdAt of [new Date(), new Date("2026-01-15T12:00:00.000Z")]) {
    await database.unbound.db.insert(modelUsage).values({
      userId: A_ID,
      kind: "chat",
      model: "openai:gpt-4o-mini",
      inputTokens: A_TOKENS,
      outputTokens: A_TOKENS,
      costUsd: 7731.7731,
      threadId: "t1",
      createdAt,
    });
  }

  // After A's chats and run: the rule names the canary, which those writes carry.
  const rule = await createRule(a, { text: `Never remember my ${CANARY} codes`, terms: [`${CANARY}-rule`] });
  await updateSettings(a, { review: "all" });
  const proposal = await propose(extractor, {
    op: "delete",
    memoryId: active.id,
    expectedVersion: active.version,
    namespace: ["users", A_ID, "team", "1"],
    kind: "memory",
    text: active.text,
    contentHash: active.contentHash,
    reason: `A retracted the plan ${CANARY}`,
    provenance: { threadId: "t1", messageId: "m-a-1", quote: `locker code is ${CANARY}`, runId: succeeded.runId },
  });

  const [aAnswer] = await database.unbound.rows<{ id: string }>(
    sql`select id from messages where user_id = ${A_ID}::uuid and role = 'assistant' order by position limit 1`,
  );
  if (!aAnswer) throw new Error("A has no answer to rate");
  await createFeedback(a, { messageId: aAnswer.id, rating: "down", comment: `too long, ${CANARY}` });
  await changeInstructions(a, {
    text: `Call me ${CANARY}.`,
    changedBy: { type: "user", id: A_ID },
    reason: "edited by hand",
  });

  const aKey = await createApiKey(bindingFor(database, A_ID), { name: `${CANARY} laptop`, scopes: ["read", "write"] });
  const revoked = await createApiKey(bindingFor(database, A_ID), { name: `${CANARY} old`, scopes: ["read"] });
  await revokeApiKey(bindingFor(database, A_ID), revoked.id);
  harness.principal = null;
  harness.auth = "key";
  harness.apiKey = aKey.key;
  expect((await rest.me()).status).toBe(200);

  const bKey = await createApiKey(bindingFor(database, B_ID), { name: "bob rw", scopes: ["read", "write"] });
  const b: MemoryContext = contextFor(database, B_ID);
  const bMemory = await createMemory(b, { content: "Bob's note about green tea", namespace: ["team", "10"] });
  await chatAs(B_ID, "t10", "m-b-1", "I like green tea");

  // The fixture must hold what the attacks aim at, or rows would pass against nothing.
  const aThreads = await database.unbound.db.select().from(threads).where(eq(threads.userId, A_ID));
  expect(aThreads.map((thread) => thread.id).sort()).toEqual(["shared-1", "t1"]);
  const aUses = await database.unbound.db.select().from(memoryAccess).where(eq(memoryAccess.userId, A_ID));
  expect(aUses.length).toBeGreaterThan(0);
  const aAnswers = await database.unbound.rows<{ parts: string }>(
    sql`select parts::text as parts from messages where user_id = ${A_ID}::uuid and role = 'assistant'`,
  );
  expect(aAnswers.some((answer) => answer.parts.includes(SHARED_MEMORY))).toBe(true);
  const aRunLogs = await database.unbound.rows<{ ops: string }>(
    sql`select (ops_proposed::text || ops_rejected::text || ops_applied::text) as ops from extraction_runs
        where user_id = ${A_ID}::uuid`,
  );
  expect(aRunLogs.some((run) => run.ops.includes(SHARED_MEMORY))).toBe(true);
  if (!failed || !item[0]) throw new Error("the fixture is incomplete");
  const [aDelivery] = (await listDeliveries(bindingFor(database, A_ID), aWebhook.webhook.id)).deliveries;
  if (!aDelivery) throw new Error("A's webhook has no deliveries");

  const aIds = [
    active.id,
    deleted.id,
    purged.id,
    profile.id,
    item[0].id,
    plainActive.id,
    plainDeleted.id,
    ...namespaced,
  ];
  return {
    a: {
      id: A_ID,
      memories: { active: active.id, deleted: deleted.id, purged: purged.id, profile: profile.id, item: item[0].id },
      namespaced,
      threadId: "t1",
      sharedThreadId: "shared-1",
      messageId: "m-a-1",
      answerId: aAnswer.id,
      runs: { succeeded: succeeded.runId, failed: failed.id },
      proposal: proposal.id,
      rule: rule.id,
      key: { id: aKey.id, secret: aKey.key, prefix: aKey.summary.prefix },
      revokedKeyId: revoked.id,
      webhook: { id: aWebhook.webhook.id, deliveryId: aDelivery.id, secret: aWebhook.secret },
      secrets: [
        aWebhook.webhook.id,
        aDelivery.id,
        aWebhook.secret,
        CANARY,
        String(A_TOKENS),
        "7731.7731",
        ...aIds,
        ...aUses.map((use) => use.memoryId),
        succeeded.runId,
        failed.id,
        proposal.id,
        rule.id,
        aKey.id,
        aKey.key,
        aKey.summary.prefix,
        revoked.id,
      ],
    },
    b: {
      id: B_ID,
      key: { id: bKey.id, secret: bKey.key },
      memoryId: bMemory.id,
      threadId: "t10",
    },
  };
}
