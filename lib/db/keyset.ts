import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";

/**
 * The one paging mechanism: a list ordered by a unique key, paged by an opaque cursor naming the last row of a page
 * (cursor in, `nextCursor` out, null on the last page). Most lists order by (timestamp, id) — ids break ties between
 * equal timestamps — and use the position functions below; a list with another key (a namespace) uses the key
 * functions they are built on. A cursor also names the order it was made for, so one from another order (or list)
 * is not silently misread.
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

/** A cursor naming a row by its sort key: the order's name, then the key's values. */
export function encodeKeyCursor(order: KeysetOrder, key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify([order.name, ...key])).toString("base64url");
}

/** The key a cursor names (checked against `keySchema`, a tuple of the key's values), null without a cursor. */
export function decodeKeyCursor<Key extends unknown[]>(
  cursor: string | undefined,
  order: KeysetOrder,
  keySchema: z.ZodType<Key>,
  onInvalid: InvalidCursorPolicy = "reject",
): Key | null {
  if (!cursor) return null;
  try {
    const [name, ...key] = z.array(z.unknown()).parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (name !== order.name) throw new Error("a cursor of another order");
    return keySchema.parse(key);
  } catch {
    if (onInvalid === "restart") return null;
    throw new ValidationError("Invalid cursor: pass nextCursor from the previous page unchanged.", [
      { path: ["cursor"], message: "not a cursor from this list" },
    ]);
  }
}

/**
 * Splits `limit + 1` fetched rows into the page and the cursor of the next one (null on the last page), so callers
 * learn whether more exists without a count.
 */
export function keyedPage<T>(rows: T[], limit: number, order: KeysetOrder, keyOf: (row: T) => readonly unknown[]) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeKeyCursor(order, keyOf(last)) : null;
  return { page, nextCursor };
}

export function encodeCursor(order: KeysetOrder, position: KeysetPosition): string {
  return encodeKeyCursor(order, [position.at.toISOString(), position.id]);
}

/** The position a cursor names, null without one; `idSchema` is the id column's shape (uuid columns refuse other text). */
export function decodeCursor(
  cursor: string | undefined,
  order: KeysetOrder,
  options: { onInvalid?: InvalidCursorPolicy; idSchema?: z.ZodType<string> } = {},
): KeysetPosition | null {
  const key = decodeKeyCursor(cursor, order, z.tuple([z.iso.datetime(), options.idSchema ?? anyId]), options.onInvalid);
  return key && { at: new Date(key[0]), id: key[1] };
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
 * A list that shows only its first `limit` rows (fetched `limit + 1`) says so: `truncated` when more exist, for the
 * caller to tell the person, never a silent cap.
 */
export function cappedRows<T>(rows: T[], limit: number): { rows: T[]; truncated: boolean } {
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

/** keyedPage for a list ordered by (timestamp, id). */
export function keysetPage<T>(rows: T[], limit: number, order: KeysetOrder, positionOf: (row: T) => KeysetPosition) {
  return keyedPage(rows, limit, order, (row) => {
    const { at, id } = positionOf(row);
    return [at.toISOString(), id];
  });
}
