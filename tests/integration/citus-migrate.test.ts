import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/lib/db/client";
import { distribute, prepareCitusMigration, REFERENCE_TABLES } from "@/lib/db/distribute";
import { createCitusDatabase } from "../support/citus";

/** Migrating a Citus database distributes it, again and again, and keeps up with later migrations. */

const coordinatorUrl = process.env.TEST_CITUS_URL;

describe.skipIf(!coordinatorUrl)("migrating on Citus", () => {
  let url: string;
  let drop: () => Promise<void>;
  let sql: postgres.Sql;

  const placement = async () =>
    Object.fromEntries(
      (
        await sql<{ name: string; type: string; colocation: number }[]>`
          select table_name::text as name, citus_table_type as type, colocation_id as colocation from citus_tables`
      ).map((row) => [row.name, `${row.type}:${row.colocation}`]),
    );

  beforeAll(async () => {
    ({ url, drop } = await createCitusDatabase(coordinatorUrl as string));
    sql = postgres(url, { max: 1, onnotice: () => {} });
  });

  afterAll(async () => {
    await sql?.end();
    await drop?.();
  });

  it("makes the reference tables reference tables and co-locates every user table by user_id", async () => {
    const database = await openPostgres(url, { max: 1 });
    expect(database.kind).toBe("citus");
    expect(database.workers).toBe(2);
    await database.close();
    const placed = await placement();
    for (const name of REFERENCE_TABLES) expect(placed[name], name).toMatch(/^reference:/);
    const userTables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.columns
      where table_schema = 'public' and column_name = 'user_id' and table_name <> all(${[...REFERENCE_TABLES]})
        and table_name in (select table_name from information_schema.tables where table_type = 'BASE TABLE')`;
    expect(userTables.length).toBeGreaterThan(15);
    const memories = placed.memories;
    expect(memories).toMatch(/^distributed:/);
    for (const { name } of userTables) expect(placed[name], name).toBe(memories);
    // Not user data: stays on the coordinator.
    expect(placed.rate_limit_windows).toBeUndefined();
    // The foreign keys came back after the placement.
    const [keys] = await sql<{ count: number }[]>`
      select count(*)::int as count from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`;
    expect(keys?.count).toBeGreaterThan(20);
  });

  it("leaves a distributed database as it is when started again", async () => {
    const before = await placement();
    const database = await openPostgres(url, { max: 1 });
    await database.close();
    expect(await placement()).toEqual(before);
  });

  it("applies a later migration that changes reference and distributed tables together, and distributes its new table", async () => {
    const migrator = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await prepareCitusMigration(migrator);
      await migrator.begin(async (tx) => {
        await tx`alter table users add column locale text`;
        await tx`alter table memories add column locale text`;
        await tx`create table memory_labels (
          user_id uuid not null references users (id) on delete cascade,
          memory_id uuid not null,
          label text not null,
          primary key (user_id, memory_id, label))`;
      });
      await distribute(migrator);
    } finally {
      await migrator.end();
    }
    const placed = await placement();
    expect(placed.memory_labels).toBe(placed.memories);
    // Co-located, so a key to the user's memories can follow in the next migration.
    await sql`alter table memory_labels add foreign key (user_id, memory_id) references memories (user_id, id)
      on delete cascade`;
    const [user] = await sql<{ id: string }[]>`insert into users (name, locale) values ('u', 'pt') returning id`;
    const [memory] = await sql<{ id: string }[]>`
      insert into memories (user_id, namespace, key, kind, content, text, content_hash, status, version, metadata,
        source_type, actor_type, actor_id, created_at, updated_at)
      values (${user!.id}, ${["users", user!.id]}, 'k', 'memory', '{"content":"x"}', 'x', 'h', 'active', 1, '{}',
        'api', 'user', ${user!.id}, now(), now())
      returning id`;
    await sql`insert into memory_labels (user_id, memory_id, label) values (${user!.id}, ${memory!.id}, 'home')`;
    await sql`delete from users where id = ${user!.id}`;
    const [left] = await sql<{ count: number }[]>`select count(*)::int as count from memory_labels`;
    expect(left?.count).toBe(0);
  });
});
