import { desc, eq } from "drizzle-orm";
import { cappedRows } from "@/lib/db/keyset";
import { optimizerRuns } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";

export type OptimizerRun = typeof optimizerRuns.$inferSelect;

/** The user's latest `limit` optimizer passes, newest first, and whether there were more (the instructions page). */
export async function listOptimizerRuns(
  binding: UserBinding,
  limit = 20,
): Promise<{ runs: OptimizerRun[]; truncated: boolean }> {
  const rows = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(optimizerRuns)
      .where(eq(optimizerRuns.userId, binding.principal.userId))
      .orderBy(desc(optimizerRuns.createdAt))
      .limit(limit + 1),
  );
  const { rows: runs, truncated } = cappedRows(rows, limit);
  return { runs, truncated };
}
