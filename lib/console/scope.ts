import { z } from "zod";
import { namespaceRoot, type Principal } from "@/lib/auth/principal";
import type { Database } from "@/lib/db";
import type { MemoryContext } from "@/lib/memory/core";
import { memoryContextFor } from "@/lib/server/memory-context";
import { type AdminView, recordAdminView } from "./audit";
import { findUser, type UserSummary } from "./users";

/** Whose memories a console page shows, and whether the viewer may change them. */
export interface ConsoleScope {
  ctx: MemoryContext;
  owner: UserSummary;
  /** An admin looking at someone else's namespace: reads only, each one audited. */
  readOnly: boolean;
  viewer: Principal;
}

/** Another user's namespace named by a console page's `?as=`, and what the page reads there (for the audit log). */
export interface AsUser {
  userId: string;
  view: AdminView;
}

/**
 * The viewer's own namespace, or (for an admin naming another user with `as`) that user's, read-only. Returns
 * null for anything else (a non-admin's `as`, an unknown user), which pages answer with 404. An admin's read of
 * another user is written to that user's audit log here, before the page reads anything, so no page that takes
 * `?as=` can forget it.
 */
export async function resolveScope(
  database: Database,
  viewer: Principal,
  as: AsUser | undefined,
): Promise<ConsoleScope | null> {
  const ownerId = as?.userId ?? viewer.userId;
  if (!z.uuid().safeParse(ownerId).success) return null;
  const readOnly = ownerId !== viewer.userId;
  if (readOnly && viewer.role !== "admin") return null;
  const owner = await findUser(database, ownerId);
  if (!owner) return null;
  if (readOnly && as) {
    await recordAdminView(
      { database, principal: { userId: ownerId } },
      { adminId: viewer.userId, action: as.view.action, target: as.view.target ?? ownerId, details: as.view.details },
    );
  }
  const ctx = await memoryContextFor(
    { userId: ownerId, root: readOnly ? namespaceRoot(ownerId) : viewer.root, isGuest: owner.isGuest },
    "console",
    { database, actor: readOnly ? { type: "admin", id: viewer.userId } : undefined },
  );
  return {
    ctx,
    owner,
    readOnly,
    viewer,
  };
}
