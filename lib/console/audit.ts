import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { auditLog } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";

/** What an admin read of another user's data: one per console page that takes `?as=`. */
export type AdminViewAction = "view_memories" | "view_memory" | "view_review" | "view_rules" | "view_instructions";

/** A console page's read, as the owner's access log names it; `target` defaults to the owner. */
export interface AdminView {
  action: AdminViewAction;
  target?: string;
  details?: Record<string, unknown>;
}

/**
 * Records, in the owner's audit log, that an admin read their data; the owner sees it in their access log. Called by
 * resolveScope (./scope.ts), the one place an admin's `?as=` is honoured.
 */
export async function recordAdminView(
  owner: UserBinding,
  entry: { adminId: string; action: AdminViewAction; target: string; details?: Record<string, unknown> },
): Promise<void> {
  await asUser(owner, ({ db }) =>
    db.insert(auditLog).values({
      userId: owner.principal.userId,
      actorType: "admin",
      actorId: entry.adminId,
      action: entry.action,
      target: entry.target,
      details: entry.details ?? null,
    }),
  );
}

export type AuditEntry = typeof auditLog.$inferSelect;

const AUDIT_ORDER: KeysetOrder = { name: "audit", direction: "desc" };

/** The owner's audit entries, newest first, keyset-paged. */
export async function listAuditEntries(
  ctx: UserBinding,
  options: { limit?: number; cursor?: string } = {},
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  const position = decodeCursor(options.cursor, AUDIT_ORDER, { onInvalid: "restart", idSchema: z.uuid() });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.userId, ctx.principal.userId),
          afterPosition(auditLog.createdAt, auditLog.id, AUDIT_ORDER, position),
        ),
      )
      .orderBy(...orderBy(auditLog.createdAt, auditLog.id, AUDIT_ORDER))
      .limit(limit + 1),
  );
  const { page: entries, nextCursor } = keysetPage(rows, limit, AUDIT_ORDER, (row) => ({
    at: row.createdAt,
    id: row.id,
  }));
  return { entries, nextCursor };
}
