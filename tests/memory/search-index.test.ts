import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { asUser } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { lexicalRanking } from "@/lib/memory/search/lexical";
import { createMemories, filterConditions } from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** Rows every scan of `relation` in the plan looked at: those it kept and those its filters threw away. */
function examined(node: PlanNode, relation: string): number {
  const own =
    node["Relation Name"] === relation
      ? ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + examined(child, relation), 0);
}

// Citus plans the statement on a shard, where its EXPLAIN shows a remote plan: the routing suite covers it there.
describeEachDatabase("a lexical search reads what its terms match", (use, backend) => {
  let ctx: MemoryContext;
  beforeAll(async () => {
    ctx = contextFor(use(), await createUser(use()));
    await createMemories(
      ctx,
      Array.from({ length: 2_000 }, (_, index) => ({ content: `Caroline wrote down chores for week ${index}` })),
    );
    await createMemories(ctx, [{ content: "Caroline adopted a greyhound named Pip" }]);
    await use().unbound.rows(sql`analyze memories`);
  });

  /** The plan of the ranking statement for `query`, as the app runs it (bound to the user, under the app role). */
  async function planOf(query: string): Promise<PlanNode> {
    const scope = filterConditions(ctx, { status: "active" }, { openAt: ctx.clock() });
    // On a table this small a sequential scan may cost less; what is tested is that the index can take the match.
    const [row] = await asUser(
      ctx,
      async (unit) =>
        unit.rows<{ "QUERY PLAN": unknown }>(
          sql`explain (analyze, format json) ${await lexicalRanking(ctx.database, unit, scope, query, 10)}`,
        ),
      { enable_seqscan: "off" },
    );
    const plan = row?.["QUERY PLAN"];
    const [top] = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
    return top!.Plan;
  }

  it.skipIf(backend === "citus")(
    "takes its candidates from the full-text index under row-level security, not from every memory of the user",
    async () => {
      expect(examined(await planOf("greyhound"), "memories")).toBeLessThan(20);
      const results = await searchMemories(ctx, { query: "greyhound", mode: "lexical" });
      expect(results.map((result) => result.memory.text)).toEqual(["Caroline adopted a greyhound named Pip"]);
    },
  );
});
