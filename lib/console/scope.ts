import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { namespaceRoot } from "@/lib/auth/principal";
import type { Database } from "@/lib/db";
import { type MemoryContext, systemClock } from "@/lib/memory";
import { memoryQuotaFor } from "@/lib/server/quotas";
import { findUser, type UserSummary } from "./users";

/** Whose memories a console page shows, and whether the viewer may change them. */
export interface ConsoleScope {
  ctx: MemoryContext;
  owner: UserSummary;
  /** An admin looking at someone else's namespace: reads only, each one audited. */
  readOnly: boolean;
  viewer: Principal;
}

/**
 * The viewer's own namespace, or (for an admin naming another user with `as`) that user's, read-only. Returns
 * null for anything else (a non-admin's `as`, an unknown user), which pages answer with 404.
 */
export async function resolveScope(
  database: Database,
  viewer: Principal,
  as: string | undefined,
  wiring: Pick<MemoryContext, "embeddingModel" | "scheduleEmbedding" | "scheduleWebhookDeliveries"> = {},
): Promise<ConsoleScope | null> {
  const ownerId = as ?? viewer.userId;
  if (!z.uuid().safeParse(ownerId).success) return null;
  const readOnly = ownerId !== viewer.userId;
  if (readOnly && viewer.role !== "admin") return null;
  const owner = await findUser(database, ownerId);
  if (!owner) return null;
  return {
    ctx: {
      database,
      principal: { userId: ownerId, root: readOnly ? namespaceRoot(ownerId) : viewer.root },
      actor: readOnly ? { type: "admin", id: viewer.userId } : { type: "user", id: viewer.userId },
      clock: systemClock,
      provenance: { source: "console" },
      memoryQuota: memoryQuotaFor(owner.isGuest),
      ...wiring,
    },
    owner,
    readOnly,
    viewer,
  };
}
