import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import { APP_ROLE } from "./app-role";
import { citusWorkers, distribute, isCitus, prepareCitusMigration } from "./distribute";
import { preparingStatements } from "./prepared-statements";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = "pglite" | "postgres" | "citus";

/**
 * Statements bound to no user: migrations, the job queue, authentication (a key is looked up before anyone is known),
 * admin reads across users, test fixtures. Everything about one user's data runs in a unit of work instead
 * (`asUser` in ./unit-of-work.ts).
 */
export interface UnboundAccess {
  db: Db;
  rows<T>(query: SQL): Promise<T[]>;
}

/** One open database: its unbound handle plus what the rest of the app needs to know about it. */
export interface Database {
  unbound: UnboundAccess;
  kind: DatabaseKind;
  /** Citus only: how many workers hold the shards. */
  workers?: number;
  /** Whether the pgvector extension exists in this database (recorded by the migrations). */
  vector: boolean;
  /**
   * Whether this login may switch to the role row-level security restricts (created by migration 0010 where the
   * login may create roles): units of work bound to a user then run as it.
   */
  appRole: boolean;
  /** How a job queue reaches the same database: PGlite's single in-process client, or a connection string. */
  connection: { kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string };
  /**
   * Work `close` finishes first: writes sent after the request that asked for them had its answer (the rate limits'
   * counts, lib/api/rate-limit.ts), which would otherwise be lost with the connection.
   */
  beforeClose(work: () => Promise<unknown>): void;
  close(): Promise<void>;
}

/** `close` once every piece of work registered by beforeClose has settled. */
function closingAfterWork(close: () => Promise<void>): Pick<Database, "beforeClose" | "close"> {
  const pending: Array<() => Promise<unknown>> = [];
  return {
    beforeClose: (work) => {
      pending.push(work);
    },
    close: async () => {
      await Promise.allSettled(pending.map((work) => work()));
      await close();
    },
  };
}

const MIGRATIONS = path.join(process.cwd(), "drizzle");
const MIGRATION_LOCK = 0x6d656d6f; // arbitrary constant: serialises concurrent migrators on one PostgreSQL

/** A PGlite client with the extensions the schema uses, not migrated. `dataDir` undefined means in-memory. */
export async function createPglite(dataDir?: string, loadDataDir?: Blob): Promise<PGlite> {
  const [{ PGlite }, { vector }, { pg_trgm }, { btree_gin }, { preparingPgliteStatements }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
    import("./pglite-prepared-statements"),
  ]);
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client = await PGlite.create(dataDir, {
    extensions: { vector, pg_trgm, btree_gin },
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  // Prepared statements are planned per call, as on PostgreSQL (PLANNED_PER_CALL).
  await client.exec(`set plan_cache_mode = ${PLANNED_PER_CALL}`);
  return preparingPgliteStatements(client);
}

/**
 * Opens PGlite with the extensions the schema uses, migrated. `dataDir` undefined means in-memory. `loadDataDir`
 * starts from a dump of another cluster (`dumpDataDir`), e.g. one already migrated; migrations still run, and apply
 * whatever the dump lacks.
 */
export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client = await createPglite(dataDir, options.loadDataDir);
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  const rows = async <T>(query: SQL) => resultRows<T>(await db.execute(query));
  return {
    unbound: { db: db as unknown as Db, rows },
    kind: "pglite",
    vector: await readVectorFlag(rows),
    appRole: await readAppRole(rows),
    connection: { kind: "pglite", client },
    ...closingAfterWork(() => client.close()),
  };
}

/**
 * How prepared statements are planned on PostgreSQL unless a transaction says otherwise: for their parameters, each
 * time, as unprepared ones were. A generic plan chosen for one user's ids or terms can be far worse for another's (a
 * re-read by 500 ids took 30–80 ms, not 2–3). Searches (lib/memory/search/search.ts) and bulk inserts (lib/db/bulk.ts)
 * opt out for their own statements.
 */
export const PLANNED_PER_CALL = "force_custom_plan";

/** `onStatement` sees every statement sent with its serialized parameters (tests read query plans with it). */
export async function openPostgres(
  url: string,
  options: { max?: number; onStatement?: (statement: string, parameters: unknown[]) => void } = {},
): Promise<Database> {
  const [{ default: postgres }, { drizzle }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
  ]);
  const { citus } = await migratePostgres(url);
  const { onStatement } = options;
  const client: Sql = preparingStatements(
    postgres(url, {
      max: options.max ?? 10,
      onnotice: () => {},
      connection: { plan_cache_mode: PLANNED_PER_CALL },
      ...(onStatement
        ? { debug: (_: number, statement: string, parameters: unknown[]) => onStatement(statement, parameters) }
        : {}),
    }),
  );
  const db = drizzle({ client, schema });
  const rows = async <T>(query: SQL) => resultRows<T>(await db.execute(query));
  return {
    unbound: { db: db as unknown as Db, rows },
    kind: citus ? "citus" : "postgres",
    ...(citus ? { workers: await citusWorkers(client) } : {}),
    vector: await readVectorFlag(rows),
    appRole: await requireAppRole(rows),
    connection: { kind: "postgres", url },
    ...closingAfterWork(() => client.end({ timeout: 5 })),
  };
}

/** The rows of a raw statement's result: postgres.js returns an array-like, PGlite an object with `rows`. */
export function resultRows<T>(result: unknown): T[] {
  return Array.isArray(result) ? [...result] : ((result as { rows: T[] }).rows ?? []);
}

/**
 * Applies pending migrations on one dedicated connection, holding an advisory lock so parallel starts take turns; on
 * Citus it then distributes what is not distributed yet (lib/db/distribute.ts).
 */
async function migratePostgres(url: string): Promise<{ citus: boolean }> {
  const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
    import("drizzle-orm/postgres-js/migrator"),
  ]);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const citus = await isCitus(client);
    if (citus) await prepareCitusMigration(client);
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    if (citus) await distribute(client);
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    return { citus };
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Why units of work cannot run as the role row-level security restricts, or null when they can. */
async function appRoleProblem(rows: UnboundAccess["rows"]): Promise<string | null> {
  const [row] = await rows<{ login: string; exists: boolean; member: boolean; unrestricted: boolean }>(sql`
    select current_user as login,
           exists (select 1 from pg_roles where rolname = ${APP_ROLE}) as exists,
           exists (select 1 from pg_roles where rolname = ${APP_ROLE})
             and pg_has_role(current_user, ${APP_ROLE}, 'MEMBER') as member,
           exists (select 1 from pg_roles where rolname = ${APP_ROLE} and (rolsuper or rolbypassrls)) as unrestricted`);
  if (!row?.exists) return `the role ${APP_ROLE} does not exist, and ${row?.login} may not create roles`;
  if (!row.member) return `the login ${row.login} may not switch to the role ${APP_ROLE}`;
  if (row.unrestricted) return `the role ${APP_ROLE} is a superuser or bypasses row-level security`;
  return null;
}

/** PGlite runs as its superuser, which creates the role; should that ever fail, work runs with its own condition only. */
async function readAppRole(rows: UnboundAccess["rows"]): Promise<boolean> {
  return (await appRoleProblem(rows)) === null;
}

/**
 * On PostgreSQL and Citus every unit of work runs as the role row-level security restricts, or the server does not
 * start: a deployment must not quietly run without the second wall between users.
 */
async function requireAppRole(rows: UnboundAccess["rows"]): Promise<true> {
  const problem = await appRoleProblem(rows);
  if (problem === null) return true;
  throw new Error(
    `Row-level security cannot be enforced: ${problem}. Run the migrations once as a login with CREATEROLE (or a ` +
      `superuser), or have an administrator run "CREATE ROLE ${APP_ROLE} NOLOGIN; GRANT ${APP_ROLE} TO <this login>;" ` +
      "before the first start. The server does not start without it.",
  );
}

async function readVectorFlag(rows: UnboundAccess["rows"]): Promise<boolean> {
  const [row] = await rows<{ value: unknown }>(sql`select value from app_meta where key = 'vector'`);
  return row?.value === true;
}
