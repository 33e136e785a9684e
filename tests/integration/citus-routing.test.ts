import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { recallMemories } from "@/lib/chat/recall";
import { type Database, openPostgres } from "@/lib/db/client";
import { memoryHealth, revertConsolidationRun, runConsolidation } from "@/lib/memory/consolidation";
import type { MemoryContext } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemories,
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  memoryHistory,
  purgeMemory,
  restoreMemory,
  updateMemory,
} from "@/lib/memory/store";
import { COUNTED_TOGETHER_FROM } from "@/lib/memory/store/bulk-statistics";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { copyMigratedCitusDatabase } from "../support/citus";

/**
 * Every per-user statement of the hot paths is planned on one shard: each path runs through the core against a Citus
 * cluster while every statement is captured, then each one is explained (with its parameters, bound to the user the
 * way the app binds it) and every Citus scan in its plan must have exactly one task.
 */

const coordinatorUrl = process.env.TEST_CITUS_URL;

interface Statement {
  text: string;
  parameters: unknown[];
}

interface PlanNode {
  "Node Type"?: string;
  "Custom Plan Provider"?: string;
  "Distributed Query"?: { Job?: { "Task Count"?: number; Tasks?: Array<{ "Remote Plan"?: unknown[] }> } };
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** The task counts of every Citus scan in a plan, its subplans and the plans it sends to the shards. */
function citusTaskCounts(node: PlanNode, counts: Array<{ provider: string; tasks: number | undefined }> = []) {
  const provider = node["Custom Plan Provider"];
  if (provider?.startsWith("Citus")) {
    const job = node["Distributed Query"]?.Job;
    counts.push({ provider, tasks: job?.["Task Count"] });
  }
  for (const child of node.Plans ?? []) citusTaskCounts(child, counts);
  for (const value of Object.values(node["Distributed Query"] ?? {})) {
    if (value && typeof value === "object" && "Plan" in value)
      citusTaskCounts((value as { Plan: PlanNode }).Plan, counts);
  }
  return counts;
}

/**
 * The statement with its parameters written in as literals: Citus cannot explain some parameterised statements it
 * runs fine (an INSERT ... SELECT it plans through the coordinator), and the values are what routing depends on.
 */
function withLiterals({ text, parameters }: Statement): string {
  return text.replace(/\$(\d+)\b/g, (_, index: string) => {
    const value = parameters[Number(index) - 1];
    return value === null || value === undefined ? "null" : `'${String(value).replaceAll("'", "''")}'`;
  });
}

/** Statements that plan nothing: the binding, transaction control, the writer's advisory lock. */
const NOT_PLANNED = /^\s*(set local|begin|commit|rollback|savepoint|release|select pg_advisory)/i;

describe.skipIf(!coordinatorUrl)("per-user statements on Citus are planned on one shard", () => {
  let database: Database;
  let drop: () => Promise<void>;
  let explainer: postgres.Sql;
  let captured: Statement[] = [];
  let capturing = false;
  let ctx: MemoryContext;

  beforeAll(async () => {
    const created = await copyMigratedCitusDatabase(coordinatorUrl as string);
    drop = created.drop;
    database = await openPostgres(created.url, {
      max: 2,
      onStatement: (text, parameters) => {
        if (capturing && text.trim() && !NOT_PLANNED.test(text)) captured.push({ text, parameters });
      },
    });
    explainer = postgres(created.url, { max: 1, onnotice: () => {} });
    ctx = contextFor(database, await createUser(database));
    const other = contextFor(database, await createUser(database));
    // Both users have memories on the cluster, so a statement that is not confined to one user has shards to visit.
    for (const c of [ctx, other]) {
      await createMemories(
        c,
        ["I work as a nurse in Toronto", "My daughter Maya likes drawing", "Coffee: a flat white"].map((content) => ({
          content,
        })),
      );
    }
  });

  afterAll(async () => {
    await explainer?.end();
    await database?.close();
    await drop?.();
  });

  async function plansOf(path: () => Promise<unknown>) {
    captured = [];
    capturing = true;
    try {
      await path();
    } finally {
      capturing = false;
    }
    const seen = new Set<string>();
    const plans: Array<{ statement: string; counts: ReturnType<typeof citusTaskCounts> }> = [];
    for (const statement of captured) {
      if (seen.has(statement.text)) continue;
      seen.add(statement.text);
      const counts = await explainer.begin(async (tx) => {
        await tx.unsafe(
          `set local app.user_id = '${ctx.principal.userId}'; set local role = 'memory_ledger_app'; ` +
            "set local citus.propagate_set_commands = 'local'",
        );
        const [row] = await tx.unsafe(`explain (format json) ${withLiterals(statement)}`).catch((error: Error) => {
          throw new Error(`could not explain: ${statement.text}\n${error.message}`);
        });
        const plan = (row as unknown as { "QUERY PLAN": Array<{ Plan: PlanNode }> })["QUERY PLAN"][0]?.Plan as PlanNode;
        return citusTaskCounts(plan);
      });
      plans.push({ statement: statement.text.replace(/\s+/g, " ").slice(0, 160), counts });
    }
    return plans;
  }

  /** Runs `path`, then asserts it touched the shards and that every statement that did was routed to one. */
  async function expectSingleShard(path: () => Promise<unknown>) {
    const plans = await plansOf(path);
    const distributed = plans.filter((plan) => plan.counts.length > 0);
    expect(distributed.length, "statements that reached Citus").toBeGreaterThan(0);
    const fannedOut = distributed.filter((plan) => plan.counts.some((count) => count.tasks !== 1));
    expect(fannedOut).toEqual([]);
  }

  it("writes: create, batch create, update, delete, restore, purge", async () => {
    await expectSingleShard(async () => {
      const memory = await createMemory(ctx, { content: "I play the cello on Sundays" });
      await createMemories(ctx, [{ content: "My cat is called Miso" }, { content: "I drive a blue van" }]);
      // A batch that counts itself into the statistics (lib/memory/store/bulk-statistics.ts).
      await createMemories(
        ctx,
        Array.from({ length: COUNTED_TOGETHER_FROM }, (_, i) => ({ content: `Plant ${i} needs water on day ${i}` })),
      );
      const updated = await updateMemory(ctx, memory.id, {
        content: "I play the cello on Saturdays",
        expectedVersion: 1,
      });
      await deleteMemory(ctx, memory.id, { expectedVersion: updated.version });
      await restoreMemory(ctx, memory.id);
      await purgeMemory(ctx, memory.id);
    });
  });

  it("reads: get, list, history", async () => {
    const memory = await createMemory(ctx, { content: "I keep bees in the garden" });
    await expectSingleShard(async () => {
      await getMemory(ctx, memory.id);
      await listMemories(ctx, {});
      await listMemories(ctx, { limit: 2 });
      await memoryHistory(ctx, memory.id);
    });
  });

  it("search: every lexical leg, a typo and a filter", async () => {
    await expectSingleShard(async () => {
      await searchMemories(ctx, { query: "nurse Toronto" });
      await searchMemories(ctx, { query: "nrse" });
      await searchMemories(ctx, { query: "daughter", kind: "memory" });
    });
  });

  it("recall before a chat turn", async () => {
    await expectSingleShard(() => recallMemories(ctx, "What is my job?"));
  });

  it("extraction: reading the thread and applying the manager's ops", async () => {
    await addExchange(
      database,
      ctx.principal.userId,
      "routing-thread",
      ["r1", "user", "I moved to Lisbon. My sister is called Ana."],
      ["r2", "assistant", "Noted."],
    );
    const model = scriptedManager([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User lives in Lisbon" },
        messageId: "r1",
        quote: "I moved to Lisbon",
      },
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's sister is called Ana" },
        messageId: "r1",
        quote: "My sister is called Ana",
      },
    ]);
    await expectSingleShard(async () => {
      const outcome = await runExtraction(
        { ctx, model, modelId: "mock" },
        { threadId: "routing-thread", jobId: "routing-job", finalAttempt: true },
      );
      expect(outcome.status).toBe("succeeded");
    });
  });

  it("consolidation: finding candidates, a run through the gate, memory health and revert", async () => {
    const extractor = { ...ctx, actor: { type: "extractor" as const, id: "offline" } };
    await createMemory(extractor, { content: "User loves hiking in the mountains" });
    await createMemory(extractor, { content: "The user loves hiking in the mountains." });
    await createMemory(extractor, { content: "User lives in Lisbon" });
    await createMemory(extractor, { content: "User lives in Porto" });
    await createMemory(extractor, { content: "User plans a trip to Rome on 2020-01-05", validFrom: "2020-01-01" });
    await expectSingleShard(async () => {
      const outcome = await runConsolidation(
        { ctx, model: new OfflineLanguageModel(), modelId: "offline" },
        { jobId: "routing-consolidation", finalAttempt: true, trigger: "manual" },
      );
      expect(outcome).toMatchObject({ status: "succeeded", applied: 3 });
      await memoryHealth(ctx);
      if (outcome.status === "succeeded") await revertConsolidationRun(ctx, outcome.runId);
    });
  });

  it("sees a statement that is not confined to one user: an admin read across users visits every shard", async () => {
    const plans = await plansOf(() => database.unbound.rows(sql`select count(*) from memories`));
    expect(plans.flatMap((plan) => plan.counts).some((count) => (count.tasks ?? 0) > 1)).toBe(true);
  });
});
