import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("memory_fts", (use, backend) => {
  it("reads English lexemes and keeps the negations and 'now', after the text's last position", async () => {
    const [row] = await use().unbound.rows<{ fts: string }>(
      sql`select memory_fts('She does not eat meat now, no')::text as fts`,
    );
    expect(row?.fts).toBe("'eat':4 'meat':5 'no':12 'not':8 'now':11");
  });

  // Not inlined, every call went through the SQL function executor: about three times the cost of the expression.
  it.skipIf(backend === "citus")("is inlined into the statements that call it", async () => {
    const plan = await use().unbound.rows<{ "QUERY PLAN": string }>(
      sql`explain (verbose) select memory_fts(w) from unnest(array['cellos', 'not']) as w`,
    );
    const text = plan.map((line) => line["QUERY PLAN"]).join("\n");
    expect(text).toContain("to_tsvector");
    expect(text).not.toContain("memory_fts");
  });
});
