import { z } from "zod";
import { LIMITS, parseDottedNamespace, SOURCE_TYPES } from "@/lib/memory/contract";
import { MEMORY_SORTS, type MemorySort } from "@/lib/memory/store";

export const SORTS: Record<MemorySort, string> = {
  updated_desc: "Recently updated",
  updated_asc: "Least recently updated",
  created_desc: "Newest",
  created_asc: "Oldest",
};
export type Sort = MemorySort;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);
/** A hand-edited URL must never break the page: an invalid parameter is dropped, not an error. */
const lenient = <T extends z.ZodType>(schema: T) =>
  z.preprocess(single, schema.optional().catch(undefined)) as unknown as z.ZodOptional<T>;

/** The /memories URL's search parameters, the single source of the list's state. */
export const listQuerySchema = z.object({
  q: lenient(z.string().trim().min(1).max(LIMITS.queryChars)),
  kind: lenient(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/)),
  status: z.preprocess(single, z.enum(["active", "deleted", "merged", "all"]).catch("active")).default("active"),
  source: lenient(z.enum(SOURCE_TYPES)),
  namespace: lenient(z.string().min(1).max(LIMITS.namespaceTextChars)),
  from: lenient(day),
  to: lenient(day),
  /** Facts that held on this day (validFrom/validTo), superseded ones included. */
  asOf: lenient(day),
  pinned: lenient(z.literal("true")),
  sort: z.preprocess(single, z.enum(MEMORY_SORTS).catch("updated_desc")).default("updated_desc"),
  cursor: lenient(z.string().max(LIMITS.cursorChars)),
  as: lenient(z.uuid()),
});
export type ListQuery = z.output<typeof listQuerySchema>;

export function parseListQuery(searchParams: Record<string, string | string[] | undefined>): ListQuery {
  return listQuerySchema.parse(searchParams);
}

/** The namespace filter as segments, or undefined when it is not a valid dotted namespace. */
export function namespaceFilter(query: ListQuery): string[] | undefined {
  if (!query.namespace) return undefined;
  try {
    return parseDottedNamespace(query.namespace);
  } catch {
    return undefined;
  }
}

/** `[from, to]` as whole days: `to` includes its whole day. */
export function dateRange(query: ListQuery): { after?: Date; before?: Date } | undefined {
  if (!query.from && !query.to) return undefined;
  const after = query.from ? new Date(`${query.from}T00:00:00.000Z`) : undefined;
  const before = query.to ? new Date(Date.parse(`${query.to}T00:00:00.000Z`) + 86_400_000) : undefined;
  return { after, before };
}

/** The same list with some parameters changed (undefined removes one); the cursor resets unless given. */
export function listHref(
  query: Partial<ListQuery>,
  changes: Partial<Record<keyof ListQuery, string | undefined>>,
): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | undefined> = { ...query, cursor: undefined, ...changes };
  for (const [key, value] of Object.entries(merged)) {
    if (value === undefined || value === "") continue;
    if (key === "status" && value === "active") continue;
    if (key === "sort" && value === "updated_desc") continue;
    params.set(key, value);
  }
  const search = params.toString();
  return search ? `/memories?${search}` : "/memories";
}
