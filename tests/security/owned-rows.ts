import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { REQUEST_ACCOUNTING_TABLES } from "../memory/support";

/** One row of a public table as JSON text, with the user it belongs to (null when the table has no owner column). */
export interface OwnedRow {
  table: string;
  owner: string | null;
  json: string;
}

/** One UNION ALL over every public table, built once per database (the schema does not change during a suite). */
const snapshotQueries = new WeakMap<Database, Promise<SQL>>();

async function snapshotQuery(database: Database): Promise<SQL> {
  const columns = await database.unbound.rows<{ table: string; column: string }>(sql`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`);
  const tables = new Map<string, Set<string>>();
  for (const { table, column } of columns) {
    if (REQUEST_ACCOUNTING_TABLES.includes(table)) continue;
    tables.set(table, (tables.get(table) ?? new Set()).add(column));
  }
  const selects = [...tables].map(([table, names]) => {
    const ownerColumn = table === "users" ? "id" : names.has("user_id") ? "user_id" : null;
    const owner = ownerColumn ? sql`t.${sql.identifier(ownerColumn)}::text` : sql`null::text`;
    return sql`select ${table}::text as "table", row_to_json(t)::text as json, ${owner} as owner
      from ${sql.identifier(table)} t`;
  });
  return sql.join(selects, sql` union all `);
}

/**
 * Every row of every table in the public schema, keyed by table and content, like `dumpAllRows` but with each row's
 * owner (`user_id`, or `id` for `users`), so a diff says whose rows a request wrote.
 */
export async function snapshotRows(database: Database): Promise<Map<string, OwnedRow>> {
  let query = snapshotQueries.get(database);
  if (!query) {
    query = snapshotQuery(database);
    snapshotQueries.set(database, query);
  }
  const rows = await database.unbound.rows<OwnedRow>(await query);
  return new Map(rows.map((row) => [`${row.table} ${row.json}`, row]));
}

export interface RowChange extends OwnedRow {
  change: "added" | "removed";
}

/** Rows that appeared or disappeared between two snapshots (an update shows as one of each). */
export function changedRows(before: Map<string, OwnedRow>, after: Map<string, OwnedRow>): RowChange[] {
  const changes: RowChange[] = [];
  for (const [key, row] of after) if (!before.has(key)) changes.push({ ...row, change: "added" });
  for (const [key, row] of before) if (!after.has(key)) changes.push({ ...row, change: "removed" });
  return changes;
}
