import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { publicTables, tableFingerprints } from "../memory/support";

/** One row of a public table as JSON text, with the user it belongs to (null when the table has no owner column). */
export interface OwnedRow {
  table: string;
  owner: string | null;
  json: string;
}

/** A table's fingerprint (tableFingerprints) and its rows keyed by content. */
interface TableRows {
  print: string;
  rows: Map<string, OwnedRow>;
}

/** Every row of every public table, table by table, as of one moment. */
export type RowSnapshot = Map<string, TableRows>;

/** The column naming a table's owner: `user_id`, or `id` for `users`; null when the table has none. */
const ownerColumns = new WeakMap<Database, Promise<Map<string, string | null>>>();

function ownerColumnsOf(database: Database): Promise<Map<string, string | null>> {
  let owners = ownerColumns.get(database);
  if (!owners) {
    owners = (async () => {
      const withUserId = await database.unbound.rows<{ table: string }>(sql`
        select table_name as "table" from information_schema.columns
        where table_schema = 'public' and column_name = 'user_id'`);
      const userIdTables = new Set(withUserId.map((row) => row.table));
      const tables = await publicTables(database);
      return new Map(
        tables.map((table) => [table, table === "users" ? "id" : userIdTables.has(table) ? "user_id" : null]),
      );
    })();
    ownerColumns.set(database, owners);
  }
  return owners;
}

async function readTable(database: Database, table: string, ownerColumn: string | null) {
  const owner = ownerColumn ? sql`t.${sql.identifier(ownerColumn)}::text` : sql`null::text`;
  const rows = await database.unbound.rows<OwnedRow>(sql`
    select ${table}::text as "table", row_to_json(t)::text as json, ${owner} as owner from ${sql.identifier(table)} t`);
  return new Map(rows.map((row) => [row.json, row]));
}

/**
 * Every row of every table in the public schema with its owner, so a diff says whose rows a request wrote. Given the
 * snapshot before, only the tables whose fingerprint moved are read again: a request touches a few tables, and the
 * suites that take a snapshot after every request would otherwise read the whole database each time.
 */
export async function snapshotRows(database: Database, before?: RowSnapshot): Promise<RowSnapshot> {
  const [prints, owners] = await Promise.all([tableFingerprints(database), ownerColumnsOf(database)]);
  const snapshot: RowSnapshot = new Map();
  for (const [table, print] of prints) {
    const previous = before?.get(table);
    const rows =
      previous?.print === print ? previous.rows : await readTable(database, table, owners.get(table) ?? null);
    snapshot.set(table, { print, rows });
  }
  return snapshot;
}

/** Every row of a snapshot, across its tables. */
export function allRows(snapshot: RowSnapshot): OwnedRow[] {
  return [...snapshot.values()].flatMap(({ rows }) => [...rows.values()]);
}

export interface RowChange extends OwnedRow {
  change: "added" | "removed";
}

/** Rows that appeared or disappeared between two snapshots (an update shows as one of each). */
export function changedRows(before: RowSnapshot, after: RowSnapshot): RowChange[] {
  const changes: RowChange[] = [];
  for (const [table, { rows }] of after) {
    const earlier = before.get(table)?.rows ?? new Map<string, OwnedRow>();
    if (earlier === rows) continue;
    for (const [key, row] of rows) if (!earlier.has(key)) changes.push({ ...row, change: "added" });
    for (const [key, row] of earlier) if (!rows.has(key)) changes.push({ ...row, change: "removed" });
  }
  return changes;
}
