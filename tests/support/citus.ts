import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openPostgres } from "@/lib/db/client";
import { copyMigratedTemplate, databaseUrl } from "./templates";

interface CitusDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Creates an empty Citus database on the coordinator and every worker of the cluster at `coordinatorUrl`. */
export async function createCitusDatabase(coordinatorUrl: string, prefix = "ml_test"): Promise<CitusDatabase> {
  return createNamedCitusDatabase(coordinatorUrl, `${prefix}_${randomBytes(6).toString("hex")}`);
}

/**
 * A migrated and distributed Citus database: a copy, on every node, of a template migrated once (./templates.ts).
 * Citus reaches a database's shards on the workers through a database of the same name, so copying the coordinator's
 * template (its metadata) and each worker's (its shards and the metadata synced to it) under one new name gives a
 * whole distributed database.
 */
export async function copyMigratedCitusDatabase(coordinatorUrl: string, prefix = "ml_test"): Promise<CitusDatabase> {
  const servers = await citusServers(coordinatorUrl);
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const { template } = await copyMigratedTemplate(
    servers,
    async (template) => {
      const { url } = await createNamedCitusDatabase(coordinatorUrl, template);
      const database = await openPostgres(url, { max: 1 });
      await database.close();
      // The coordinator records each transaction it committed on the workers in two phases until its maintenance
      // daemon finds it finished; a copy would inherit those records, so they are settled here once.
      const coordinator = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await coordinator`select recover_prepared_transactions()`;
      } finally {
        await coordinator.end();
      }
    },
    name,
  );
  // Creating the extension marks its own database as a distributed object on each node; a copy carries the
  // template's mark, which moves to the copy so Citus treats it as its own database, as in one created afresh.
  await Promise.all(
    servers.map(async (server) => {
      const copy = postgres(databaseUrl(server, name), { max: 1, onnotice: () => {} });
      try {
        await copy`
          update pg_catalog.pg_dist_object
          set objid = (select oid from pg_database where datname = current_database())
          where classid = 'pg_database'::regclass
            and objid = (select oid from pg_database where datname = ${template})`;
      } finally {
        await copy.end();
      }
    }),
  );
  return { url: databaseUrl(coordinatorUrl, name), drop: () => dropCitusDatabase(servers, name) };
}

/** Admin URLs (database "postgres") of the coordinator at `coordinatorUrl`, then of each of its workers. */
async function citusServers(coordinatorUrl: string): Promise<string[]> {
  const admin = postgres(coordinatorUrl, { max: 1, onnotice: () => {} });
  try {
    const workers = await admin<{ host: string; port: number }[]>`
      select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 order by nodeid`;
    return [
      databaseUrl(coordinatorUrl, "postgres"),
      ...workers.map((node) => databaseUrl(coordinatorUrl, "postgres", node)),
    ];
  } finally {
    await admin.end();
  }
}

async function createNamedCitusDatabase(coordinatorUrl: string, name: string): Promise<CitusDatabase> {
  const servers = await citusServers(coordinatorUrl);
  for (const server of servers) {
    const connection = postgres(server, { max: 1, onnotice: () => {} });
    await connection.unsafe(`create database ${name}`);
    await connection.end();
    const created = postgres(databaseUrl(server, name), { max: 1, onnotice: () => {} });
    await created.unsafe("create extension citus");
    await created.end();
  }
  const coordinator = new URL(coordinatorUrl);
  const url = databaseUrl(coordinatorUrl, name);
  const fresh = postgres(url, { max: 1, onnotice: () => {} });
  await fresh`select citus_set_coordinator_host(${coordinator.hostname}, ${Number(coordinator.port || 5432)})`;
  for (const server of servers.slice(1)) {
    const worker = new URL(server);
    await fresh`select citus_add_node(${worker.hostname}, ${Number(worker.port || 5432)})`;
  }
  // Four shards per table instead of 32: still more shards than workers (a statement that fans out shows it), and a
  // database per suite, snapshots of every table and cross-user reads stay quick on a two-core machine.
  await fresh.unsafe(`alter database ${name} set citus.shard_count = 4`);
  await fresh.end();
  return { url, drop: () => dropCitusDatabase(servers, name) };
}

async function dropCitusDatabase(servers: string[], name: string): Promise<void> {
  for (const server of [...servers].reverse()) {
    const connection = postgres(server, { max: 1, onnotice: () => {} });
    await connection.unsafe(`drop database if exists ${name} with (force)`);
    await connection.end();
  }
}
