import type { z } from "zod";
import { MemoryValidationError } from "./errors";

/** Parses with zod and turns a failure into MemoryValidationError (422 at the HTTP surfaces). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
    message: issue.message,
  }));
  const first = issues[0];
  const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  throw new MemoryValidationError(`Invalid input: ${where}${first?.message ?? "rejected"}.`, issues);
}
