import bcrypt from "bcryptjs";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { postgresErrorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { accounts, users } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { RegisterInput } from "./credentials";

const BCRYPT_ROUNDS = 10;
let dummyHash: Promise<string> | undefined;

export type UserRow = typeof users.$inferSelect;

export class EmailTakenError extends AppError {
  constructor() {
    super("conflict", "An account with this email already exists.", [
      { path: ["email"], message: "already registered" },
    ]);
    this.name = "EmailTakenError";
  }
}

export async function createGuestUser(db: Db): Promise<UserRow> {
  const [user] = await db.insert(users).values({ isGuest: true, name: "Guest" }).returning();
  return user!;
}

/**
 * Registers an account. When `guestId` names a guest, that same user row becomes the account, so everything the
 * guest saved stays theirs.
 */
export async function registerUser(db: Db, input: RegisterInput, guestId?: string): Promise<UserRow> {
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
  const values = { email: input.email, name: input.name || null, passwordHash, isGuest: false, updatedAt: new Date() };
  try {
    if (guestId) {
      const [upgraded] = await db
        .update(users)
        .set(values)
        .where(and(eq(users.id, guestId), eq(users.isGuest, true)))
        .returning();
      if (upgraded) return upgraded;
    }
    const [created] = await db.insert(users).values(values).returning();
    return created!;
  } catch (error) {
    if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw new EmailTakenError();
    throw error;
  }
}

/** The user for these credentials, or null. Compares a hash even for unknown emails so timing does not reveal them. */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  dummyHash ??= bcrypt.hash("no account has this password", BCRYPT_ROUNDS);
  const ok = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHash));
  return ok && user?.passwordHash ? user : null;
}

export async function findUser(db: Db, id: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

/**
 * Links an OAuth identity to a user, creating the user on first sign-in. `emailVerified` is the provider's word that
 * the email belongs to this person; only then is `email_verified_at` set (an admin role may rest on it).
 */
export async function userForOAuth(
  db: Db,
  provider: string,
  providerAccountId: string,
  profile: { email?: string | null; name?: string | null; emailVerified?: boolean },
  now = new Date(),
): Promise<UserRow> {
  const email = profile.email?.toLowerCase() ?? null;
  return db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ user: users })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)))
      .limit(1);
    if (linked) {
      const { user } = linked;
      if (!profile.emailVerified || !email || user.email !== email || user.emailVerifiedAt) return user;
      const [verified] = await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id)).returning();
      return verified!;
    }
    // Never attach an OAuth identity to an existing password account by email alone: that would let whoever controls
    // the OAuth email take the account over. A clash leaves the new user without an email instead.
    const [taken] = email ? await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1) : [];
    const kept = taken ? null : email;
    const [user] = await tx
      .insert(users)
      .values({ email: kept, name: profile.name ?? null, emailVerifiedAt: kept && profile.emailVerified ? now : null })
      .returning();
    await tx.insert(accounts).values({ provider, providerAccountId, userId: user!.id });
    return user!;
  });
}
