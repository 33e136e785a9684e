import { and, desc, eq, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
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

const cursorSchema = z.strictObject({ at: z.iso.datetime(), id: z.uuid() });

/** The owner's audit entries, newest first, keyset-paged. */
export async function listAuditEntries(
  db: Db,
  userId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  const position = parseCursor(options.cursor);
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.userId, userId),
        position
          ? or(
              lt(auditLog.createdAt, position.at),
              and(eq(auditLog.createdAt, position.at), lt(auditLog.id, position.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? Buffer.from(JSON.stringify({ at: last.createdAt.toISOString(), id: last.id })).toString("base64url")
      : null;
  return { entries, nextCursor };
}

function parseCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { at: new Date(parsed.at), id: parsed.id };
  } catch {
    return null;
  }
}
