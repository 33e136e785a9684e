import { getTableColumns, getTableName, is, SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * A multi-row `insert ... values` as text with positional parameters (run with `UnitOfWork.query`), each value as
 * drizzle hands it to the driver, cast to its column's type. Citus routes such an insert, whose rows all carry one user's id, to that
 * user's shard as one task, where an insert from a JSON select is planned through the coordinator (and written with
 * COPY, which row-level security refuses). Building it here rather than with drizzle's `values()` keeps a batch of a
 * thousand rows cheap. `tail` follows the values list (`on conflict do nothing returning id`).
 */
export function valuesInsert<T extends PgTable>(
  table: T,
  rows: ReadonlyArray<T["$inferInsert"]>,
  tail = "",
): { text: string; parameters: unknown[] } {
  const columns = insertColumns(table);
  const parameters: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = columns.map(([field, column]) => {
      const value = insertValue(table, row as Record<string, unknown>, field, column);
      parameters.push(value === null ? null : column.mapToDriverValue(value));
      return `$${parameters.length}::${column.getSQLType()}`;
    });
    return `(${placeholders.join(", ")})`;
  });
  const names = columns.map(([, column]) => quoteIdentifier(column.name)).join(", ");
  const text = `insert into ${quoteIdentifier(getTableName(table))} (${names}) values ${tuples.join(", ")} ${tail}`;
  return { text: text.trim(), parameters };
}

type InsertColumn = [field: string, column: ReturnType<typeof getTableColumns<PgTable>>[string]];

function insertColumns(table: PgTable): InsertColumn[] {
  return Object.entries(getTableColumns(table)).filter(
    // Generated columns; public at runtime, internal in drizzle's types.
    ([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert(),
  );
}

/** A row's value for a column, or what `values()` would put there: the default function's or value's, else null. */
function insertValue(table: PgTable, row: Record<string, unknown>, field: string, column: InsertColumn[1]): unknown {
  const value = row[field];
  if (value !== undefined) return value;
  if (column.defaultFn) return column.defaultFn();
  if (column.hasDefault && !is(column.default, SQL)) return column.default;
  if (column.hasDefault) throw new Error(`${getTableName(table)}.${column.name}: SQL defaults need a value`);
  return null;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
