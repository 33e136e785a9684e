import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";

/**
 * The one paging mechanism: lists ordered by (timestamp, id) — ids break ties between equal timestamps — and paged
 * by an opaque cursor naming the last row of a page. A cursor also names the order it was made for, so one from
 * another order (or list) is not silently misread.
 */
export interface KeysetPosition {
  at: Date;
  id: string;
}

export type KeysetDirection = "asc" | "desc";

export interface KeysetOrder {
  /** Distinguishes orders and lists in the cursor (e.g. `updated_desc`, `threads`). */
  name: string;
  direction: KeysetDirection;
}

/**
 * What a cursor this app did not make (hand-edited, truncated, from another order) means. An API caller sent a bad
 * request: `reject` (422). A console page's URL is something a person may have edited: `restart` at the first page.
 */
export type InvalidCursorPolicy = "reject" | "restart";

const anyId = z.string().min(1).max(200);

export function encodeCursor(order: KeysetOrder, position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([order.name, position.at.toISOString(), position.id])).toString("base64url");
}

/** The position a cursor names, null without one; `idSchema` is the id column's shape (uuid columns refuse other text). */
export function decodeCursor(
  cursor: string | undefined,
  order: KeysetOrder,
  options: { onInvalid?: InvalidCursorPolicy; idSchema?: z.ZodType<string> } = {},
): KeysetPosition | null {
  if (!cursor) return null;
  try {
    const [, at, id] = z
      .tuple([z.literal(order.name), z.iso.datetime(), options.idSchema ?? anyId])
      .parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { at: new Date(at), id };
  } catch {
    if ((options.onInvalid ?? "reject") === "restart") return null;
    throw new ValidationError("Invalid cursor: pass nextCursor from the previous page unchanged.", [
      { path: ["cursor"], message: "not a cursor from this list" },
    ]);
  }
}

/** Rows after `position` in the order's direction; no condition without a position. */
export function afterPosition(
  atColumn: PgColumn,
  idColumn: PgColumn,
  order: KeysetOrder,
  position: KeysetPosition | null,
): SQL | undefined {
  if (!position) return undefined;
  const beyond = order.direction === "desc" ? lt : gt;
  return or(beyond(atColumn, position.at), and(eq(atColumn, position.at), beyond(idColumn, position.id)));
}

/** ORDER BY terms for the order: the timestamp, then the id, both in its direction. */
export function orderBy(atColumn: PgColumn, idColumn: PgColumn, order: KeysetOrder): SQL[] {
  const by = order.direction === "desc" ? desc : asc;
  return [by(atColumn), by(idColumn)];
}

/**
 * Splits `limit + 1` fetched rows into the page and the cursor of the next one (null on the last page), so callers
 * learn whether more exists without a count.
 */
export function keysetPage<T>(rows: T[], limit: number, order: KeysetOrder, positionOf: (row: T) => KeysetPosition) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(order, positionOf(last)) : null;
  return { page, nextCursor };
}
