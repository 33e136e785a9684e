import { and, asc, eq, gt, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/lib/db";
import { decodeKeyCursor, type KeysetOrder, keyedPage } from "@/lib/db/keyset";
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

const USER_ORDER: KeysetOrder = { name: "users", direction: "asc" };

/**
 * For the admin's user picker: every account matching a search over email and name (or exactly its id), keyset-paged
 * by id; a cursor the list did not make starts over (it comes from the page's URL).
 */
export async function listUsers(
  database: Database,
  options: { search?: string; cursor?: string; limit?: number } = {},
): Promise<{ users: Array<UserSummary & { memoryCount: number }>; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  const after = decodeKeyCursor(options.cursor, USER_ORDER, z.tuple([z.uuid()]), "restart");
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
        after ? gt(users.id, after[0]) : undefined,
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit + 1);
  const { page, nextCursor } = keyedPage(rows, limit, USER_ORDER, (user) => [user.id]);
  return { users: page, nextCursor };
}
