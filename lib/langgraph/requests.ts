import { z } from "zod";
import { fieldFilterSchema, keyInput, LIMITS } from "@/lib/memory/contract";

/**
 * Request shapes of the LangGraph Agent Server's store API, as `@langchain/langgraph-sdk` sends them. Fields the SDK
 * may add later are ignored rather than refused, so newer clients keep working; namespace labels are checked by the
 * memory core (empty or dotted labels → 422, as the Agent Server answers).
 */
const namespace = z.array(z.string());
const key = keyInput;

export const putItemBody = z.object({
  namespace,
  key,
  value: z.record(z.string(), z.json()),
  index: z.union([z.literal(false), z.array(z.string()), z.null()]).optional(),
  ttl: z.number().nullable().optional(),
});

export const getItemQuery = z.object({
  namespace: z.string().max(LIMITS.namespaceTextChars).default(""),
  key,
  refresh_ttl: z.string().optional(),
});

export const deleteItemBody = z.object({ namespace, key });

/**
 * A search skips at most this many items: every skipped item is still read from the database, so a larger offset
 * would let one request load thousands of memories.
 */
export const MAX_SEARCH_OFFSET = 1_000;

export const searchItemsBody = z.object({
  namespace_prefix: namespace.default([]),
  filter: fieldFilterSchema.nullable().optional(),
  limit: z.number().int().min(1).max(LIMITS.searchResults).default(10),
  offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).default(0),
  query: z.string().max(LIMITS.queryChars).nullable().optional(),
  refresh_ttl: z.boolean().nullable().optional(),
});

export const listNamespacesBody = z.object({
  prefix: namespace.nullable().optional(),
  suffix: namespace.nullable().optional(),
  max_depth: z.number().int().min(1).max(LIMITS.namespaceListDepth).nullable().optional(),
  limit: z.number().int().min(1).max(LIMITS.namespacePage).default(100),
  offset: z.number().int().min(0).default(0),
});

const item = {
  namespace: z.array(z.string()),
  key: z.string(),
  value: z.record(z.string(), z.json()),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
};
export const itemResponse = z.object(item);
export const searchItemsResponse = z.object({
  items: z.array(z.object({ ...item, score: z.number().nullable() })),
});
export const listNamespacesResponse = z.object({ namespaces: z.array(z.array(z.string())) });
