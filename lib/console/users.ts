import { and, asc, eq, gt, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/lib/db";
import { memories, users } from "@/lib/db/schema";

export interface UserSummary {
  id: string;
  email: string | null;
  name: string | null;
  isGuest: boolean;
  createdAt: Date;
}

const summaryColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  isGuest: users.isGuest,
  createdAt: users.createdAt,
};

/** Accounts are not user data: read unbound (the admin console looks users up across accounts). */
export async function findUser(database: Database, userId: string): Promise<UserSummary | null> {
  const [row] = await database.unbound.db.select(summaryColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** For the admin's user picker: every account matching a search over email and name (or exactly its id), keyset-paged by id. */
export async function listUsers(
  database: Database,
  options: { search?: string; afterId?: string; limit?: number } = {},
): Promise<{ users: Array<UserSummary & { memoryCount: number }>; nextAfterId: string | null }> {
  const limit = options.limit ?? 50;
  const term = options.search?.trim();
  const pattern = term ? `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
  const exactId = term && z.uuid().safeParse(term).success ? term : undefined;
  const rows = await database.unbound.db
    .select({
      ...summaryColumns,
      // Per-user count through the (user_id, status, …) index; bounded by the page size.
      memoryCount: sql<number>`(select count(*)::int from ${memories} m where m.user_id = ${users.id} and m.status = 'active')`,
    })
    .from(users)
    .where(
      and(
        exactId
          ? eq(users.id, exactId)
          : pattern
            ? or(ilike(users.email, pattern), ilike(users.name, pattern))
            : undefined,
        options.afterId ? gt(users.id, options.afterId) : undefined,
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { users: page, nextAfterId: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
