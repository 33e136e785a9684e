import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { decodeKeyset, keysetPage, olderThan } from "@/lib/db/keyset";
import { auditLog } from "@/lib/db/schema";

export type AdminViewAction = "view_memories" | "view_memory";

/** Records that an admin read someone's memories; the owner sees it in their access log. */
export async function recordAdminView(
  db: Db,
  entry: {
    adminId: string;
    userId: string;
    action: AdminViewAction;
    target: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    actorType: "admin",
    actorId: entry.adminId,
    action: entry.action,
    target: entry.target,
    details: entry.details ?? null,
  });
}

export type AuditEntry = typeof auditLog.$inferSelect;

/** The owner's audit entries, newest first, keyset-paged. */
export async function listAuditEntries(
  db: Db,
  userId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  const position = decodeKeyset(options.cursor, z.uuid());
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), olderThan(auditLog.createdAt, auditLog.id, position)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
  const { page: entries, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { entries, nextCursor };
}
