import { and, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "@/lib/db/schema";
import type { MemoryContext } from "./context";
import { absoluteNamespace, namespaceHasPrefix, textArray } from "./namespace";

/** A field path inside metadata or content: `priority`, `project.name` (up to four levels). */
const fieldPath = z.string().regex(/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/, "invalid field name");
const scalar = z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]);
const orderable = z.union([z.string().max(1_000), z.number()]);
const operators = z
  .strictObject({
    $eq: scalar,
    $ne: scalar,
    $gt: orderable,
    $gte: orderable,
    $lt: orderable,
    $lte: orderable,
    $in: z.array(scalar).min(1).max(100),
    $nin: z.array(scalar).min(1).max(100),
  })
  .partial()
  .refine((ops) => Object.keys(ops).length > 0, "an operator object needs at least one operator");

/** `{ field: value }` means equality; `{ field: { $gte: 2, $lt: 5 } }` combines operators with AND. */
export const fieldFilterSchema = z
  .record(fieldPath, z.union([scalar, operators]))
  .refine((filter) => Object.keys(filter).length <= 20, "at most 20 fields");
export type FieldFilter = z.infer<typeof fieldFilterSchema>;

export const statusFilterSchema = z.enum(["active", "deleted", "all"]);
export type StatusFilter = z.infer<typeof statusFilterSchema>;

export const memoryFiltersSchema = z.strictObject({
  kind: z.union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(20)]).optional(),
  status: statusFilterSchema.optional(),
  /** Relative namespace prefix (whole segments). */
  namespace: z.array(z.string()).optional(),
  metadata: fieldFilterSchema.optional(),
  content: fieldFilterSchema.optional(),
  timeRange: z
    .strictObject({
      field: z.enum(["createdAt", "updatedAt"]).default("updatedAt"),
      after: z.coerce.date().optional(),
      before: z.coerce.date().optional(),
    })
    .optional(),
});
export type MemoryFilters = z.input<typeof memoryFiltersSchema>;
type ParsedFilters = z.output<typeof memoryFiltersSchema>;

/** The caller's rows: owner and namespace root always, a relative prefix when given. */
export function ownedUnder(ctx: MemoryContext, relativePrefix: readonly string[] = []): SQL {
  return and(
    sql`${memories.userId} = ${ctx.principal.userId}::uuid`,
    namespaceHasPrefix(memories.namespace, absoluteNamespace(ctx.principal.root, relativePrefix)),
  ) as SQL;
}

/** WHERE clause over `memories` for already-validated filters; every value is a bound parameter. */
export function filterConditions(ctx: MemoryContext, filters: ParsedFilters): SQL {
  const conditions: SQL[] = [ownedUnder(ctx, filters.namespace)];
  const status = filters.status ?? "active";
  if (status !== "all") conditions.push(sql`${memories.status} = ${status}`);
  if (filters.kind !== undefined) {
    const kinds = Array.isArray(filters.kind) ? filters.kind : [filters.kind];
    conditions.push(sql`${memories.kind} = any(${textArray(kinds)})`);
  }
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
