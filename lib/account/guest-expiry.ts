import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { logFailure } from "@/lib/log";
import { deleteAccount } from "./delete-account";

/** Guests deleted per run at most: a backlog (a first run on old data) is worked off over the next runs. */
const BATCH = 500;

/**
 * Deletes, the way a person deletes their own account (deleteAccount), every guest whose last request is more than
 * `ttlDays` before `now`. Registered users are never expired. One guest failing does not keep the others.
 */
export async function expireIdleGuests(
  database: Database,
  options: { now: Date; ttlDays: number },
): Promise<{ deleted: string[] }> {
  const idleSince = new Date(options.now.getTime() - options.ttlDays * 86_400_000);
  const since = idleSince.toISOString();
  // Idle means no session request and no use of one of their API keys since then.
  const idleGuest = sql`is_guest and last_active_at < ${since}::timestamptz
    and not exists (select 1 from api_keys k where k.user_id = users.id and k.last_used_at >= ${since}::timestamptz)`;
  const idle = await database.unbound.rows<{ id: string }>(sql`
    select id::text as id from users where ${idleGuest} order by last_active_at limit ${BATCH}`);
  const deleted: string[] = [];
  for (const { id } of idle) {
    try {
      // Checked again as their sessions end: a guest who came back (or registered) since the list was read stays,
      // and one who comes back from now on is a new visitor, not the account being deleted.
      const [ended] = await database.unbound.rows<{ id: string }>(sql`
        update users set session_generation = session_generation + 1
        where id = ${id} and ${idleGuest} returning id::text as id`);
      if (!ended) continue;
      await deleteAccount(database, id);
      deleted.push(id);
    } catch (error) {
      logFailure("could not delete an idle guest", error, "warn");
    }
  }
  return { deleted };
}
