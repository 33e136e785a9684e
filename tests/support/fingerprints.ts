import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Database } from "@/lib/db/client";
import { databaseUrl } from "./templates";

/**
 * Per table, its row count and the sum of a 64-bit hash of each row's text, as one string: equal before and after a
 * request exactly when (but for a hash collision) no row was added, removed or changed. Far cheaper than reading every
 * row back, so the suites that prove "a refusal writes nothing" check it after every request.
 */
export async function fingerprintsOf(database: Database, tables: string[]): Promise<Map<string, string>> {
  const rows =
    database.kind === "citus"
      ? await readWhereTheRowsLive(database, tables)
      : await database.unbound.rows<PrintRow>(sql.raw(printStatement(tables.map((table) => ({ table, from: table })))));
  const sums = new Map(tables.map((table) => [table, { count: 0n, hash: 0n }]));
  for (const row of rows) {
    const sum = sums.get(row.table);
    if (!sum) continue;
    sum.count += BigInt(row.count);
    sum.hash += BigInt(row.hash);
  }
  return new Map([...sums].map(([table, { count, hash }]) => [table, `${count} rows, hash ${hash}`]));
}

/** Closes the connections to the workers that fingerprints of `database` opened, if any. */
export async function closeFingerprintReaders(database: Database): Promise<void> {
  const opened = readers.get(database);
  readers.delete(database);
  const { workers } = (await opened?.catch(() => undefined)) ?? { workers: [] };
  await Promise.all(workers.map(({ client }) => client.end({ timeout: 5 })));
}

type PrintRow = { table: string; count: string; hash: string };

/** One statement: per source, the table it counts for, its row count and hash sum. */
function printStatement(sources: Array<{ table: string; from: string }>): string {
  return sources
    .map(
      ({ table, from }) => `select '${table.replaceAll("'", "''")}' as "table", count(*)::text as count,
        coalesce(sum(hashtextextended(t::text, 0)::numeric), 0)::text as hash from "${from.replaceAll('"', '""')}" t`,
    )
    .join(" union all ");
}

interface Readers {
  /** Tables the coordinator reads itself: reference tables (it holds a copy) and tables Citus does not manage. */
  onCoordinator: string;
  /** Per worker, a connection to its copy of the database and one statement over every shard it holds. */
  workers: Array<{ client: postgres.Sql; statement: string }>;
}

const readers = new WeakMap<Database, Promise<Readers>>();

/**
 * On Citus, each distributed table's fingerprint through the coordinator is a distributed query of its own (25 tables
 * took about 25 ms), and the isolation suite takes one after every request. Each worker instead sums the shards it
 * holds in one local statement, all workers at once, beside the coordinator's own tables (about 4 ms). A table's sums
 * over its shards are its own: each row lives in exactly one shard, with the same text.
 */
async function readWhereTheRowsLive(database: Database, tables: string[]): Promise<PrintRow[]> {
  let opened = readers.get(database);
  if (!opened) {
    opened = openReaders(database, tables);
    readers.set(database, opened);
  }
  const { onCoordinator, workers } = await opened;
  const parts = await Promise.all([
    onCoordinator ? database.unbound.rows<PrintRow>(sql.raw(onCoordinator)) : [],
    ...workers.map(({ client, statement }) => client.unsafe<PrintRow[]>(statement)),
  ]);
  return parts.flat();
}

async function openReaders(database: Database, tables: string[]): Promise<Readers> {
  if (database.connection.kind !== "postgres") throw new Error("expected a Citus database");
  const url = database.connection.url;
  const shards = await database.unbound.rows<{ table: string; shard: string; host: string; port: number }>(sql`
    select table_name::text as "table", shard_name as shard, nodename as host, nodeport as port
    from citus_shards where citus_table_type = 'distributed'`);
  const distributed = new Set(shards.map((shard) => shard.table));
  const byWorker = new Map<string, typeof shards>();
  for (const shard of shards.filter((shard) => tables.includes(shard.table))) {
    const key = `${shard.host}:${shard.port}`;
    byWorker.set(key, [...(byWorker.get(key) ?? []), shard]);
  }
  const name = new URL(url).pathname.slice(1);
  return {
    onCoordinator: printStatement(
      tables.filter((table) => !distributed.has(table)).map((table) => ({ table, from: table })),
    ),
    workers: [...byWorker.values()].map((held) => ({
      client: postgres(databaseUrl(url, name, { host: held[0]!.host, port: held[0]!.port }), {
        max: 1,
        onnotice: () => {},
      }),
      statement: printStatement(held.map(({ table, shard }) => ({ table, from: shard }))),
    })),
  };
}
