import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = "pglite" | "postgres";

/** One open database: the drizzle handle plus what the rest of the app needs to know about it. */
export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Whether the pgvector extension exists in this database (recorded by the migrations). */
  vector: boolean;
  rows<T>(query: SQL): Promise<T[]>;
  /** How a job queue reaches the same database: PGlite's single in-process client, or a connection string. */
  connection: { kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string };
  close(): Promise<void>;
}

const MIGRATIONS = path.join(process.cwd(), "drizzle");
const MIGRATION_LOCK = 0x6d656d6f; // arbitrary constant: serialises concurrent migrators on one PostgreSQL

/** Opens PGlite with the extensions the schema uses. `dataDir` undefined means in-memory. */
export async function openPglite(dataDir?: string): Promise<Database> {
  const [{ PGlite }, { vector }, { pg_trgm }, { btree_gin }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client: PGlite = await PGlite.create(dataDir, { extensions: { vector, pg_trgm, btree_gin } });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  const rows = async <T>(query: SQL) => (await db.execute(query)).rows as T[];
  return {
    db: db as unknown as Db,
    kind: "pglite",
    vector: await readVectorFlag(rows),
    rows,
    connection: { kind: "pglite", client },
    close: () => client.close(),
  };
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const [{ default: postgres }, { drizzle }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
  ]);
  await migratePostgres(url);
  const client: Sql = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  const db = drizzle({ client, schema });
  const rows = async <T>(query: SQL) => [...(await db.execute(query))] as T[];
  return {
    db: db as unknown as Db,
    kind: "postgres",
    vector: await readVectorFlag(rows),
    rows,
    connection: { kind: "postgres", url },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * Runs `work` in one transaction, handing it a Database bound to that transaction, so code written against a
 * Database (the memory store, raw `rows` queries) joins the transaction instead of waiting on it. Nested
 * transactions inside become savepoints.
 */
export function inTransaction<T>(database: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return database.db.transaction((tx) =>
    work({
      ...database,
      db: tx as unknown as Db,
      rows: async <R>(query: SQL) => {
        const result = (await tx.execute(query)) as unknown as R[] | { rows: R[] };
        return Array.isArray(result) ? [...result] : result.rows;
      },
    }),
  );
}

/** Applies pending migrations on one dedicated connection, holding an advisory lock so parallel starts take turns. */
async function migratePostgres(url: string) {
  const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
    import("drizzle-orm/postgres-js/migrator"),
  ]);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function readVectorFlag(rows: Database["rows"]): Promise<boolean> {
  const [row] = await rows<{ value: unknown }>(sql`select value from app_meta where key = 'vector'`);
  return row?.value === true;
}
