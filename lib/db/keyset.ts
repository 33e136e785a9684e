import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";

/** Where a newest-first page ended: the last row's timestamp and id (ids break ties between equal timestamps). */
export interface KeysetPosition {
  at: Date;
  id: string;
}

const anyId = z.string().min(1).max(200);

export function encodeKeyset(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

/**
 * The position a cursor names; anything that is not a cursor this app made reads as "from the start". `idSchema`
 * is the id column's shape (uuid columns refuse other text in the comparison, which would fail the query).
 */
export function decodeKeyset(cursor: string | undefined, idSchema: z.ZodType<string> = anyId): KeysetPosition | null {
  if (!cursor) return null;
  try {
    const [at, id] = z
      .tuple([z.iso.datetime(), idSchema])
      .parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { at: new Date(at), id };
  } catch {
    return null;
  }
}

/** Rows after `position` in (at desc, id desc) order; no condition without a position. */
export function olderThan(atColumn: PgColumn, idColumn: PgColumn, position: KeysetPosition | null): SQL | undefined {
  if (!position) return undefined;
  return or(lt(atColumn, position.at), and(eq(atColumn, position.at), lt(idColumn, position.id)));
}

/**
 * Splits `limit + 1` fetched rows into the page and the cursor of the next one (null on the last page), so callers
 * learn whether more exists without a count.
 */
export function keysetPage<T>(rows: T[], limit: number, positionOf: (row: T) => KeysetPosition) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeKeyset(positionOf(last).at, positionOf(last).id) : null;
  return { page, nextCursor };
}
