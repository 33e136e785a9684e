import { z } from "zod";
import { MemoryValidationError } from "./errors";

/** Keyset position in a newest-first list: the last row's `updated_at` and id. */
const positionSchema = z.strictObject({ updatedAt: z.iso.datetime(), id: z.uuid() });
export type CursorPosition = z.infer<typeof positionSchema>;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    return positionSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new MemoryValidationError("Invalid cursor.", [{ path: ["cursor"], message: "not a cursor from this API" }]);
  }
}
