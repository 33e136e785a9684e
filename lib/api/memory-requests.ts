import { z } from "zod";
import { fieldFilterSchema, statusFilterSchema } from "@/lib/memory";

/** Request shapes of /api/v1/memories (DESIGN §7). Strict: an unknown field is a 422, not silently dropped. */
const kind = z.string().min(1).max(64);
const namespace = z.array(z.string()).max(16);
const metadata = z.record(z.string(), z.json());

export const createMemoryBody = z.strictObject({
  content: z.unknown().refine((value) => value !== undefined, "content is required"),
  kind: kind.optional(),
  namespace: namespace.optional(),
  key: z.string().min(1).max(256).optional(),
  metadata: metadata.optional(),
});

export const updateMemoryBody = z.strictObject({
  content: z.unknown().optional(),
  kind: kind.optional(),
  metadata: metadata.optional(),
  expectedVersion: z.number().int().positive().optional(),
});

export const listMemoriesQuery = z.strictObject({
  q: z.string().trim().min(1).max(2_000).optional(),
  kind: kind.optional(),
  status: statusFilterSchema.optional(),
  namespace: z.string().max(2_000).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(500).optional(),
});

export const deleteMemoryQuery = z.strictObject({ purge: z.enum(["true", "false"]).optional() });

export const searchMemoriesBody = z.strictObject({
  query: z.string(),
  limit: z.number().int().min(1).max(100).optional(),
  kind: z.union([kind, z.array(kind).min(1).max(20)]).optional(),
  filter: fieldFilterSchema.optional(),
  namespace: namespace.optional(),
});

export const noQuery = z.strictObject({});
