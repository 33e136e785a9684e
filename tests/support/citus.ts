import { randomBytes } from "node:crypto";
import postgres from "postgres";

/** Creates an empty Citus database on the coordinator and every worker of the cluster at `coordinatorUrl`. */
export async function createCitusDatabase(
  coordinatorUrl: string,
  prefix = "ml_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const at = (base: string, host: string, port: number, database: string) => {
    const url = new URL(base);
    url.hostname = host;
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const coordinator = new URL(coordinatorUrl);
  const admin = postgres(coordinatorUrl, { max: 1, onnotice: () => {} });
  const nodes = await admin<{ host: string; port: number }[]>`
    select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 order by nodeid`;
  const servers = [{ host: coordinator.hostname, port: Number(coordinator.port || 5432) }, ...nodes];
  for (const server of servers) {
    const connection = postgres(at(coordinatorUrl, server.host, server.port, "postgres"), {
      max: 1,
      onnotice: () => {},
    });
    await connection.unsafe(`create database ${name}`);
    await connection.end();
    const created = postgres(at(coordinatorUrl, server.host, server.port, name), { max: 1, onnotice: () => {} });
    await created.unsafe("create extension citus");
    await created.end();
  }
  const url = at(coordinatorUrl, coordinator.hostname, servers[0]?.port ?? 5432, name);
  const fresh = postgres(url, { max: 1, onnotice: () => {} });
  await fresh`select citus_set_coordinator_host(${coordinator.hostname}, ${servers[0]?.port ?? 5432})`;
  for (const node of nodes) await fresh`select citus_add_node(${node.host}, ${node.port})`;
  // Four shards per table instead of 32: still more shards than workers (a statement that fans out shows it), and a
  // database per suite, snapshots of every table and cross-user reads stay quick on a two-core machine.
  await fresh.unsafe(`alter database ${name} set citus.shard_count = 4`);
  await fresh.end();
  return {
    url,
    async drop() {
      for (const server of [...servers].reverse()) {
        const connection = postgres(at(coordinatorUrl, server.host, server.port, "postgres"), {
          max: 1,
          onnotice: () => {},
        });
        await connection.unsafe(`drop database if exists ${name} with (force)`);
        await connection.end();
      }
      await admin.end();
    },
  };
}
