import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { asUser } from "@/lib/db/unit-of-work";

export interface PruneDeliveriesOptions {
  now: Date;
  /** Finished deliveries whose last attempt is older than this many days are deleted. */
  retentionDays: number;
  /** Rows one statement deletes at most: each batch is its own short transaction. */
  batchSize?: number;
  /** Users read per page of the users table. */
  usersPerPage?: number;
}

/**
 * Deletes the delivery log's finished rows (succeeded or failed) whose last attempt, or creation when none was made,
 * is older than the retention; pending and sending deliveries stay, however old. Users are read in pages from the
 * users table (a reference table on Citus) and every delete names one user, so each statement goes to one shard and
 * runs bound to that user like any other write of theirs.
 */
export async function pruneWebhookDeliveries(
  database: Database,
  { now, retentionDays, batchSize = 1_000, usersPerPage = 500 }: PruneDeliveriesOptions,
): Promise<{ deleted: number }> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let deleted = 0;
  let after: string | null = null;
  for (;;) {
    const page: Array<{ id: string }> = await database.unbound.rows<{ id: string }>(sql`
      select id::text as id from users
      where ${after === null ? sql`true` : sql`id > ${after}::uuid`}
      order by id limit ${usersPerPage}`);
    for (const { id: userId } of page) {
      for (;;) {
        const rows = await asUser({ database, principal: { userId } }, (unit) =>
          unit.rows<{ id: string }>(sql`
            delete from webhook_deliveries
            -- The conditions again outside: a delivery redelivered (pending again) while this statement waited for
            -- its row is not finished any more, and stays.
            where user_id = ${userId}::uuid and status in ('succeeded', 'failed')
              and coalesce(last_attempt_at, created_at) < ${before}::timestamptz
              and id in (
              select id from webhook_deliveries
              where user_id = ${userId}::uuid and status in ('succeeded', 'failed')
                and coalesce(last_attempt_at, created_at) < ${before}::timestamptz
              limit ${batchSize})
            returning id`),
        );
        deleted += rows.length;
        if (rows.length < batchSize) break;
      }
    }
    if (page.length < usersPerPage) return { deleted };
    after = page[page.length - 1]?.id ?? null;
  }
}
