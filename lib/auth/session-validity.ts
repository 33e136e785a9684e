import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { type Role, roleOf } from "./principal";

/** What a session token carries about its user: who, and which generation of their sessions it belongs to. */
export interface SessionClaims {
  uid: string;
  generation: number;
}

/** The user as their row says now: a session's role, email and name never come from the token alone. */
export interface SessionUser {
  role: Role;
  isGuest: boolean;
  email: string | null;
  name: string | null;
}

/** Guest expiry reads last_active_at; keeping it to the hour spares a write on every request. */
const ACTIVITY_RESOLUTION_MS = 60 * 60 * 1000;

/**
 * Whether a session token still stands, and who it stands for: null when its user is gone (deleted account) or
 * signed out everywhere since the token was issued. One read of the user's row by id; a write at most once an hour
 * to record activity. Every session request passes here (the Auth.js `jwt` callback in ./authjs.ts), so a cookie
 * proxy, page, server action and API route alike stop working the moment this says no.
 */
export async function checkSession(db: Db, claims: SessionClaims, now = new Date()): Promise<SessionUser | null> {
  const [row] = await db
    .select({
      email: users.email,
      name: users.name,
      isGuest: users.isGuest,
      isAdmin: users.isAdmin,
      emailVerifiedAt: users.emailVerifiedAt,
      sessionGeneration: users.sessionGeneration,
      lastActiveAt: users.lastActiveAt,
    })
    .from(users)
    .where(eq(users.id, claims.uid))
    .limit(1);
  if (!row || row.sessionGeneration !== claims.generation) return null;
  const staleBefore = new Date(now.getTime() - ACTIVITY_RESOLUTION_MS);
  if (row.lastActiveAt < staleBefore) {
    await db
      .update(users)
      .set({ lastActiveAt: now })
      .where(and(eq(users.id, claims.uid), lt(users.lastActiveAt, staleBefore)));
  }
  return { role: roleOf(row), isGuest: row.isGuest, email: row.email, name: row.name };
}

/**
 * Signs a user out everywhere: every token issued before carries an older generation, which checkSession refuses.
 * Returns false when no such user exists.
 */
export async function revokeSessions(db: Db, userId: string): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated.length > 0;
}
