import type { Sql, TransactionSql } from "postgres";
import { APP_ROLE } from "./app-role";

/**
 * Tables every node needs whole: a user is found by email, a login by provider ids and a key by its hash alone, so
 * none of them can be split by user. Small, read on every request, written rarely.
 */
export const REFERENCE_TABLES = ["users", "accounts", "api_keys", "app_meta"] as const;

/** The column every user-data table is distributed by; co-locating them keeps each user's statements on one shard. */
const DISTRIBUTION_COLUMN = "user_id";

/** Whether this database runs Citus (the extension exists): migrating then also distributes the schema. */
export async function isCitus(client: Sql): Promise<boolean> {
  const [row] = await client<{ citus: boolean }[]>`
    select exists (select 1 from pg_extension where extname = 'citus') as citus`;
  return row?.citus === true;
}

/**
 * Session settings a migration needs on Citus: one transaction may alter reference and distributed tables together
 * (sequential mode), and the statistics triggers on `memories` may be created on its shards (they only touch the same
 * user's co-located rows).
 */
export async function prepareCitusMigration(client: Sql): Promise<void> {
  await client.unsafe(migrationSettings("set"));
}

const migrationSettings = (set: "set" | "set local") =>
  `${set} citus.multi_shard_modify_mode = 'sequential'; ${set} citus.enable_unsafe_triggers = on`;

/**
 * Makes the reference tables reference tables and distributes every other public table with a `user_id` column by it,
 * co-located with `memories`. Idempotent: tables already placed are left alone, so it runs after every migration and
 * picks up tables a later migration created. Foreign keys are dropped and re-added around the placement: Citus turns a
 * local table referencing a reference table into a coordinator-local table, which then cannot be distributed.
 * Tables with neither (the rate-limit windows, the migration journal) stay on the coordinator.
 */
export async function distribute(client: Sql): Promise<void> {
  await client.begin(async (tx) => {
    await tx.unsafe(migrationSettings("set local"));
    const placement = await placements(tx);
    const userTables = (
      await tx<{ name: string }[]>`
        select c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and exists (select 1 from pg_attribute a
                      where a.attrelid = c.oid and a.attname = ${DISTRIBUTION_COLUMN} and not a.attisdropped)
        order by c.relname`
    )
      .map((row) => row.name)
      .filter((name) => !(REFERENCE_TABLES as readonly string[]).includes(name));
    const references = REFERENCE_TABLES.filter((name) => placement.get(name) !== "reference");
    const distributed = userTables.filter((name) => placement.get(name) !== "distributed");
    if (references.length === 0 && distributed.length === 0) return;

    const moving = [...references, ...distributed];
    const keys = await tx<{ table: string; name: string; definition: string }[]>`
      select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint
      where contype = 'f' and connamespace = 'public'::regnamespace
        and (conrelid::regclass::text = any(${moving}) or confrelid::regclass::text = any(${moving}))
      order by conrelid::regclass::text, conname`;
    for (const key of keys) await tx.unsafe(`alter table ${quote(key.table)} drop constraint ${quote(key.name)}`);
    // A table Citus made coordinator-local (a later migration's table with a key to `users`) mostly went back to a
    // plain table with its keys; one still local goes back by hand: only plain tables can be distributed.
    const now = await placements(tx);
    for (const name of moving) if (now.get(name) === "local") await tx`select undistribute_table(${name})`;
    for (const name of references) await tx`select create_reference_table(${name})`;
    const order = [...distributed].sort((a, b) => Number(b === "memories") - Number(a === "memories"));
    for (const name of order) {
      const colocate = name === "memories" ? "default" : "memories";
      await tx`select create_distributed_table(${name}, ${DISTRIBUTION_COLUMN}, colocate_with => ${colocate})`;
    }
    for (const key of keys) {
      await tx.unsafe(`alter table ${quote(key.table)} add constraint ${quote(key.name)} ${key.definition}`);
    }
    // Citus opens its worker connections as the current role: the role row-level security restricts must log in there.
    await tx.unsafe(`
      do $$ begin
        if exists (select 1 from pg_roles where rolname = '${APP_ROLE}' and not rolcanlogin) then
          alter role ${APP_ROLE} login;
        end if;
      end $$`);
    // The user binding is SET LOCAL; only with this does Citus send it along to the shards' connections.
    await tx.unsafe(
      `do $$ begin execute format('alter database %I set citus.propagate_set_commands = ''local''', current_database()); end $$`,
    );
  });
}

/**
 * What Citus made of each table it knows: distributed, reference or (coordinator-)local. Read from its catalog, not
 * the `citus_tables` view, which also sizes every shard over other connections (slow, and it waits on this
 * transaction's own locks).
 */
async function placements(tx: TransactionSql): Promise<Map<string, "distributed" | "reference" | "local">> {
  const rows = await tx<{ name: string; method: string; replication: string }[]>`
    select logicalrelid::regclass::text as name, partmethod as method, repmodel as replication from pg_dist_partition`;
  return new Map(
    rows.map((row) => [row.name, row.method === "h" ? "distributed" : row.replication === "t" ? "reference" : "local"]),
  );
}

/** How many workers the cluster has (primaries that are active and hold shards). */
export async function citusWorkers(client: Sql): Promise<number> {
  const [row] = await client<{ workers: number }[]>`
    select count(*)::int as workers from pg_dist_node where noderole = 'primary' and isactive and shouldhaveshards
      and groupid <> 0`;
  return row?.workers ?? 0;
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
