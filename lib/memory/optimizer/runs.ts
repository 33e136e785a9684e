import { desc, eq } from "drizzle-orm";
import { optimizerRuns } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";

export type OptimizerRun = typeof optimizerRuns.$inferSelect;

/** The user's latest optimizer passes, newest first (the instructions page shows them). */
export async function listOptimizerRuns(binding: UserBinding, limit = 20): Promise<OptimizerRun[]> {
  return asUser(binding, ({ db }) =>
    db
      .select()
      .from(optimizerRuns)
      .where(eq(optimizerRuns.userId, binding.principal.userId))
      .orderBy(desc(optimizerRuns.createdAt))
      .limit(limit),
  );
}
