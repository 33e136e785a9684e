import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { countsSettled, storedKey } from "@/lib/api/rate-limit";
import { forgetUserKeys } from "@/lib/auth/api-keys";
import { type Database, resultRows } from "@/lib/db/client";
import { asUser } from "@/lib/db/unit-of-work";
import { QUEUE_SCHEMA } from "@/lib/server/queue";

/** What a deleted person's id is replaced with where it stays in someone else's record (see docs/security.md). */
export const DELETED_ACCOUNT = "deleted-account";

/** Rows removed per table, as `DELETE /api/v1/account` answers them. */
export type DeletedRows = Record<string, number>;

export const deletedAccountResponse = z.strictObject({
  deleted: z
    .record(z.string(), z.number().int().positive())
    .describe("Rows removed, per table (pg-boss jobs as pgboss.job); tables with none are left out."),
});

/**
 * Login tables the row-level-security role may not touch (they hold password hashes): their rows go unbound, with the
 * user row, after everything else.
 */
const LOGIN_TABLES = ["users", "accounts"];

/**
 * Deletes a person and everything that is theirs (docs/security.md, "Deleting an account"): every row of every table
 * whose `user_id` is theirs — the schema's one convention for owned rows, the same one the Citus distribution rests
 * on, so a table added later is covered without being named here —, the rate-limit windows counted for them and
 * their keys, the queued jobs whose row names them, then the login rows and the user row. Where their id stands in
 * another user's record (an admin's reads and writes of that user's data), it is replaced by DELETED_ACCOUNT: the
 * record is the other user's and stays. Each statement concerns one user, as Citus routes it to one shard group.
 */
export async function deleteAccount(database: Database, userId: string): Promise<{ deleted: DeletedRows }> {
  const deleted: DeletedRows = {};
  const add = (table: string, rows: number) => {
    deleted[table] = (deleted[table] ?? 0) + rows;
  };
  // Its sessions end first, in every process (each request reads the user's row), so nothing they send while the
  // rows go writes new ones.
  const [user] = await database.unbound.rows<{ isGuest: boolean }>(sql`
    update users set session_generation = session_generation + 1 where id = ${userId}
    returning is_guest as "isGuest"`);
  const owned = await ownedTables(database);
  const keyIds = await asUser({ database, principal: { userId } }, async (unit) => {
    const keys = await unit.rows<{ id: string }>(sql`select id::text as id from api_keys where user_id = ${userId}`);
    // Two passes: deleting memories fires the triggers that keep the statistics tables, which may write their rows
    // again after the first pass reached them.
    for (let pass = 0; pass < 2; pass++) {
      for (const table of owned) {
        add(table, await countDeleted(unit.rows, sql`delete from ${sql.identifier(table)} where user_id = ${userId}`));
      }
    }
    return keys.map((key) => key.id);
  });
  // Only an admin's id stands in other users' records, and a guest never was one: their deletion scans no one else's.
  if (!user?.isGuest) await anonymiseActor(database, userId);

  await countsSettled(database, [userId, ...keyIds]);
  const limitKeys = [userId, ...keyIds].map(storedKey);
  add(
    "rate_limit_windows",
    await countDeleted(
      database.unbound.rows,
      // Locked in the order a rate limit's count locks its keys (lib/api/rate-limit.ts), so the two never deadlock.
      sql`delete from rate_limit_windows where (limiter, key) in (
        select limiter, key from rate_limit_windows
        where key in (${sql.join(
          limitKeys.map((key) => sql`${key}`),
          sql`, `,
        )})
        order by limiter, key for update)`,
    ),
  );
  if (await queueExists(database)) {
    const jobs = sql`${sql.identifier(QUEUE_SCHEMA)}.job`;
    add(
      `${QUEUE_SCHEMA}.job`,
      // Every job about a user carries them in its data (and webhook jobs as their group).
      await countDeleted(
        database.unbound.rows,
        sql`delete from ${jobs} where data->>'userId' = ${userId} or group_id = ${userId}`,
      ),
    );
  }
  await database.unbound.db.transaction(async (tx) => {
    const rows = async <T>(query: SQL) => resultRows<T>(await tx.execute(query));
    add("accounts", await countDeleted(rows, sql`delete from accounts where user_id = ${userId}`));
    add("users", await countDeleted(rows, sql`delete from users where id = ${userId}`));
  });
  forgetUserKeys(userId);
  return { deleted: Object.fromEntries(Object.entries(deleted).filter(([, rows]) => rows > 0)) };
}

/** Every public table with a `user_id` column, referencing tables before the ones they reference. */
async function ownedTables(database: Database): Promise<string[]> {
  const tables = await database.unbound.rows<{ name: string }>(sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
    order by c.relname`);
  const names = tables.map((table) => table.name).filter((name) => !LOGIN_TABLES.includes(name));
  const references = await database.unbound.rows<{ child: string; parent: string }>(sql`
    select conrelid::regclass::text as child, confrelid::regclass::text as parent
    from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`);
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const { child, parent } of references) if (parent === name && child !== name) visit(child, path);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered.filter((name) => names.includes(name));
}

/**
 * Another user's rows that name this person as the one who acted (an admin reading or editing that user's data):
 * the rows stay with their owner, the id goes. Found across users, changed as each owner.
 */
async function anonymiseActor(database: Database, userId: string) {
  const tables = await database.unbound.rows<{ name: string }>(sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'actor_id' and not a.attisdropped)
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
    order by c.relname`);
  for (const { name } of tables) {
    const table = sql.identifier(name);
    const owners = await database.unbound.rows<{ owner: string }>(
      sql`select distinct user_id::text as owner from ${table} where actor_id = ${userId}`,
    );
    for (const { owner } of owners) {
      await asUser({ database, principal: { userId: owner } }, (unit) =>
        unit.rows(
          sql`update ${table} set actor_id = ${DELETED_ACCOUNT} where user_id = ${owner} and actor_id = ${userId}`,
        ),
      );
    }
  }
}

async function queueExists(database: Database): Promise<boolean> {
  const [row] = await database.unbound.rows<{ found: boolean }>(
    sql`select to_regclass(${`${QUEUE_SCHEMA}.job`}) is not null as found`,
  );
  return row?.found === true;
}

/** The rows a DELETE or UPDATE touched, through a counting wrapper every driver answers the same way. */
async function countDeleted(rows: <T>(query: SQL) => Promise<T[]>, statement: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(sql`with touched as (${statement} returning 1) select count(*)::int as n
    from touched`);
  return row?.n ?? 0;
}
