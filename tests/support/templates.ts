import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

/**
 * A short hash of the migrations and of the code that applies them (lib/db: the migrator, Citus's distribution). It
 * names the migrated PGlite dump and the template databases, so a change to either makes new ones instead of reusing
 * a stale copy.
 */
export function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const folder of ["drizzle", "lib/db"]) {
    for (const name of readdirSync(path.resolve(folder), { recursive: true }).map(String).sort()) {
      const file = path.resolve(folder, name);
      if (statSync(file).isFile()) hash.update(path.join(folder, name)).update(readFileSync(file));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/** `url` with its database replaced (and, when given, its host and port). */
export function databaseUrl(url: string, database: string, server?: { host: string; port: number }): string {
  const copy = new URL(url);
  if (server) {
    copy.hostname = server.host;
    copy.port = String(server.port);
  }
  copy.pathname = `/${database}`;
  return copy.toString();
}

/**
 * Creates `name` on every server of `servers` (admin URLs; on Citus the coordinator first, then the workers) as a copy
 * of the migrated template (migratedTemplate), building the template first when it is missing. A template dropped by
 * another run's clean-up between the look-up and the copy is built again, once.
 */
export async function copyMigratedTemplate(
  servers: string[],
  build: (template: string) => Promise<void>,
  name: string,
): Promise<{ template: string }> {
  for (let attempt = 1; ; attempt++) {
    const template = await migratedTemplate(servers, build);
    // Each server copies its own template, at the same time.
    const copies = await Promise.allSettled(servers.map((server) => copyDatabase(server, template, name)));
    const failure = copies.find((copy) => copy.status === "rejected");
    if (!failure) return { template };
    await eachServer(servers, (server) => server.unsafe(`drop database if exists ${name} with (force)`));
    if (attempt > 1 || (failure.reason as { code?: string }).code !== UNDEFINED_DATABASE) throw failure.reason;
  }
}

const UNDEFINED_DATABASE = "3D000";
const TEMPLATE_PREFIX = "ml_template_";
const TEMPLATE_LOCK = 0x6d6c746d; // arbitrary constant: one builder of a template at a time per server
/**
 * Templates of other migrations kept besides the current one: runs of branches with other migrations may share the
 * server, and each would otherwise drop the template the other is copying from.
 */
const OTHER_TEMPLATES_KEPT = 3;

/**
 * The name of a template database holding the current migrations, applied, on every server of `servers`. The first
 * caller to find it missing builds it with `build`, which creates the database under the name it is given and
 * migrates it; callers on other vitest workers wait on an advisory lock meanwhile. The template is then closed to
 * connections and marked as a template on every server, the first server last: its mark says the template is whole.
 */
async function migratedTemplate(servers: string[], build: (template: string) => Promise<void>): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  const [first] = servers;
  if (!first) throw new Error("no server to hold the template");
  const admin = postgres(first, { max: 1, onnotice: () => {} });
  try {
    if (await isTemplate(admin, name)) return name;
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK})`;
    if (await isTemplate(admin, name)) return name;
    await eachServer(servers, (server) => dropDatabases(server, [name]));
    await build(name);
    // Closed first everywhere: Citus's maintenance daemon (and a coordinator's connections to its workers) would
    // otherwise keep a session open, and a database cannot be copied while anyone is connected to it.
    await eachServer(servers, (server) => closeToConnections(server, name));
    await eachServer([...servers].reverse(), (server) => server.unsafe(`alter database ${name} is_template true`));
    await eachServer(servers, async (server) => {
      const others = await server<{ name: string }[]>`
        select datname as name from pg_database
        where datname like ${`${TEMPLATE_PREFIX}%`} and datname <> ${name}
        order by oid desc offset ${OTHER_TEMPLATES_KEPT}`;
      await dropDatabases(
        server,
        others.map((row) => row.name),
      );
    });
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * Creates `name` as a copy of `template` on the server at `adminUrl`, with the template's database-level settings
 * (ALTER DATABASE ... SET), which CREATE DATABASE does not copy: the migrations set one on Citus
 * (lib/db/distribute.ts), the test cluster its shard count (./citus.ts).
 */
async function copyDatabase(adminUrl: string, template: string, name: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    // Copying the template's files rather than writing each of its pages through the WAL: about 0.5 CPU-seconds less
    // per copy on a three-node Citus cluster (88 against 76 for the memory and chat suites there), a little less on
    // PostgreSQL (docs/testing.md, "Time").
    await admin.unsafe(`create database ${name} template ${template} strategy file_copy`);
    const [row] = await admin<{ settings: string[] | null }[]>`
      select s.setconfig as settings from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
      where d.datname = ${template} and s.setrole = 0`;
    for (const setting of row?.settings ?? []) {
      const at = setting.indexOf("=");
      const key = setting.slice(0, at);
      if (!/^[a-z_][a-z0-9_.]*$/i.test(key)) throw new Error(`unexpected database setting: ${setting}`);
      await admin.unsafe(`alter database ${name} set ${key} = '${setting.slice(at + 1).replaceAll("'", "''")}'`);
    }
  } finally {
    await admin.end();
  }
}

async function isTemplate(admin: postgres.Sql, name: string): Promise<boolean> {
  const [row] = await admin<{ ready: boolean }[]>`
    select exists (select 1 from pg_database where datname = ${name} and datistemplate) as ready`;
  return row?.ready === true;
}

async function eachServer(servers: string[], work: (server: postgres.Sql) => Promise<unknown>): Promise<void> {
  for (const url of servers) {
    const server = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await work(server);
    } finally {
      await server.end();
    }
  }
}

async function closeToConnections(server: postgres.Sql, name: string): Promise<void> {
  await server.unsafe(`alter database ${name} allow_connections false`);
  for (;;) {
    const [row] = await server<{ open: number }[]>`
      select count(pg_terminate_backend(pid))::int as open from pg_stat_activity
      where datname = ${name} and pid <> pg_backend_pid()`;
    if (!row?.open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function dropDatabases(server: postgres.Sql, names: string[]): Promise<void> {
  for (const name of names) {
    const [row] = await server<{ exists: boolean }[]>`
      select exists (select 1 from pg_database where datname = ${name}) as exists`;
    if (!row?.exists) continue;
    await server.unsafe(`alter database ${name} is_template false`);
    await server.unsafe(`drop database ${name} with (force)`);
  }
}
