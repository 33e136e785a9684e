import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type Database, openPostgres } from "@/lib/db/client";

export interface ScratchPostgres {
  /** Connection string of the throwaway database. */
  url: string;
  /** Server version, for the machine record. */
  version: string;
  drop(): Promise<void>;
}

/** A throwaway database on the local server (dropped at the end), shared by Memory Ledger and PostgresStore. */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchPostgres> {
  const name = `ml_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const [{ server_version: version }] = await admin<[{ server_version: string }]>`show server_version`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    version: `PostgreSQL ${version}`,
    async drop() {
      // Closed pools may still be saying goodbye; forcing them off races their shutdown into an unhandled error.
      for (let attempt = 0; attempt < 20; attempt++) {
        const [{ sessions }] = await admin<[{ sessions: number }]>`
          select count(*)::int as sessions from pg_stat_activity where datname = ${name}`;
        if (sessions === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export const openLedgerPostgres = (url: string): Promise<Database> => openPostgres(url, { max: 4 });
