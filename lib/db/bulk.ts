import { getTableColumns, getTableName, is, SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { PLANNED_PER_CALL } from "./client";

/**
 * Settings (SET LOCAL) for the statements of a bulk insert and for after it. A multi-row insert's plan does not
 * depend on its values, and planning one of 500 rows anew on every call took longer than running it (about 40 ms of
 * a 500-memory batch's 75 ms insert): its statement is planned once per connection instead.
 */
export const BULK_PLANNING = { plan_cache_mode: "force_generic_plan" } as const;
export const DEFAULT_PLANNING = { plan_cache_mode: PLANNED_PER_CALL } as const;

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
  const plan = insertPlan(table);
  const parameters: unknown[] = [];
  for (const row of rows) {
    for (const column of plan.columns) parameters.push(column.driverValue(row as Record<string, unknown>));
  }
  return { text: plan.text(rows.length, tail), parameters };
}

interface InsertPlan {
  columns: Array<{ driverValue(row: Record<string, unknown>): unknown }>;
  /** The statement for `count` rows, kept per count: a batch of the same size sends the same text. */
  text(count: number, tail: string): string;
}

const insertPlans = new WeakMap<PgTable, InsertPlan>();

/** What a table's multi-row insert needs, worked out once: its columns' names, types, defaults and driver mappers. */
function insertPlan(table: PgTable): InsertPlan {
  const known = insertPlans.get(table);
  if (known) return known;
  const columns = insertColumns(table);
  const types = columns.map(([, column]) => column.getSQLType());
  const names = columns.map(([, column]) => quoteIdentifier(column.name)).join(", ");
  const head = `insert into ${quoteIdentifier(getTableName(table))} (${names}) values `;
  const texts = new Map<string, string>();
  const plan: InsertPlan = {
    columns: columns.map(([field, column]) => ({
      driverValue: (row) => {
        const value = insertValue(table, row, field, column);
        return value === null ? null : column.mapToDriverValue(value);
      },
    })),
    text(count, tail) {
      const key = `${count} ${tail}`;
      let text = texts.get(key);
      if (text === undefined) {
        const tuples: string[] = [];
        for (let row = 0; row < count; row++) {
          const first = row * types.length;
          tuples.push(`(${types.map((type, column) => `$${first + column + 1}::${type}`).join(", ")})`);
        }
        text = `${head}${tuples.join(", ")} ${tail}`.trim();
        // Batches come in a few sizes; an unbounded mix of sizes must not grow this without end.
        if (texts.size >= 64) texts.clear();
        texts.set(key, text);
      }
      return text;
    },
  };
  insertPlans.set(table, plan);
  return plan;
}

/**
 * The table's rows as a statement returned them (`returning *` on a valuesInsert, run with `UnitOfWork.query`), in
 * the shape drizzle's own select gives: fields by their property names, each value mapped from the driver as drizzle
 * maps it. Saves reading back what an insert has just written.
 */
export function rowsFromDriver<T extends PgTable>(
  table: T,
  rows: ReadonlyArray<Record<string, unknown>>,
): T["$inferSelect"][] {
  const columns = Object.entries(getTableColumns(table));
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [field, column] of columns) {
      const value = raw[column.name];
      row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  });
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
