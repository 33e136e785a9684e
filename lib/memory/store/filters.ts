import { and, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { memories } from "@/lib/db/schema";
import type { FieldFilter, memoryFiltersSchema, scalar } from "@/lib/memory/contract";
import { absoluteNamespace, type MemoryContext, namespaceHasPrefix, textArray } from "@/lib/memory/core";

/** The caller's rows: owner and namespace root always, a relative prefix when given. */
export function ownedUnder(ctx: MemoryContext, relativePrefix: readonly string[] = []): SQL {
  return and(
    sql`${memories.userId} = ${ctx.principal.userId}::uuid`,
    namespaceHasPrefix(memories.namespace, absoluteNamespace(ctx.principal.root, relativePrefix)),
  ) as SQL;
}

type ParsedFilters = z.output<typeof memoryFiltersSchema>;

/**
 * WHERE clause over `memories` for already-validated filters; every value is a bound parameter. `openAt` leaves out
 * facts that stopped holding by then (superseded), for searches that rank as of today when no `asOf` is given.
 */
export function filterConditions(ctx: MemoryContext, filters: ParsedFilters, options: { openAt?: Date } = {}): SQL {
  const conditions: SQL[] = [ownedUnder(ctx, filters.namespace)];
  if (filters.pinned !== undefined) conditions.push(sql`${memories.pinned} = ${filters.pinned}`);
  if (filters.asOf) conditions.push(validAt(filters.asOf));
  else if (options.openAt) {
    conditions.push(
      sql`(${memories.validTo} is null or ${memories.validTo} > ${options.openAt.toISOString()}::timestamptz)`,
    );
  }
  const status = filters.status ?? "active";
  if (status !== "all") conditions.push(sql`${memories.status} = ${status}`);
  if (filters.kind !== undefined) {
    const kinds = Array.isArray(filters.kind) ? filters.kind : [filters.kind];
    conditions.push(sql`${memories.kind} = any(${textArray(kinds)})`);
  }
  if (filters.source) conditions.push(sql`${memories.sourceType} = ${filters.source}`);
  if (filters.metadata) conditions.push(...fieldConditions(sql`${memories.metadata}`, filters.metadata));
  if (filters.content) conditions.push(...fieldConditions(sql`${memories.content}`, filters.content));
  if (filters.timeRange) {
    const column = filters.timeRange.field === "createdAt" ? memories.createdAt : memories.updatedAt;
    if (filters.timeRange.after)
      conditions.push(sql`${column} >= ${filters.timeRange.after.toISOString()}::timestamptz`);
    if (filters.timeRange.before)
      conditions.push(sql`${column} < ${filters.timeRange.before.toISOString()}::timestamptz`);
  }
  return and(...conditions) as SQL;
}

/** Held at `instant`: started then or before (or unknown), and not yet ended. */
function validAt(instant: Date): SQL {
  const at = sql`${instant.toISOString()}::timestamptz`;
  return sql`((${memories.validFrom} is null or ${memories.validFrom} <= ${at}) and (${memories.validTo} is null or ${memories.validTo} > ${at}))`;
}

type Scalar = z.infer<typeof scalar>;

const jsonValue = (value: Scalar) => sql`${JSON.stringify(value)}::text::jsonb`;

function fieldConditions(document: SQL, filter: FieldFilter): SQL[] {
  return Object.entries(filter).flatMap(([path, condition]) => {
    const field = sql`(${document} #> ${textArray(path.split("."))})`;
    const ops = condition !== null && typeof condition === "object" ? condition : { $eq: condition };
    return Object.entries(ops).map(([op, value]) => operatorCondition(field, op, value));
  });
}

function operatorCondition(field: SQL, op: string, value: unknown): SQL {
  switch (op) {
    case "$eq":
      return value === null ? sql`${field} = 'null'::jsonb` : sql`${field} = ${jsonValue(value as Scalar)}`;
    case "$ne":
      return sql`${field} is distinct from ${jsonValue(value as Scalar)}`;
    case "$in":
      return sql`${field} in (${sql.join((value as Scalar[]).map(jsonValue), sql`, `)})`;
    case "$nin":
      return sql`(${field} is null or ${field} not in (${sql.join((value as Scalar[]).map(jsonValue), sql`, `)}))`;
    default:
      return comparison(field, op, value as string | number);
  }
}

const COMPARATORS: Record<string, string> = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" };

/** Numbers compare numerically (only against JSON numbers), strings lexically (only against JSON strings). */
function comparison(field: SQL, op: string, value: string | number): SQL {
  const comparator = sql.raw(COMPARATORS[op] as string);
  if (typeof value === "number") {
    // CASE, not AND: the planner may evaluate an AND's operands in any order, and the cast fails on non-numbers.
    return sql`(case when jsonb_typeof(${field}) = 'number' then (${field})::numeric ${comparator} ${String(value)}::text::numeric else false end)`;
  }
  return sql`(jsonb_typeof(${field}) = 'string' and (${field} #>> '{}') ${comparator} ${value}::text)`;
}
