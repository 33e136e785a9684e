import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { emailSchema } from "./credentials";

export type AdminChange = "grant" | "revoke";

export class UnknownUserError extends Error {
  constructor(email: string) {
    super(`No user has the email ${email}: they must sign up (or sign in with GitHub) first.`);
    this.name = "UnknownUserError";
  }
}

/**
 * Sets or clears a user's admin flag, the operator's way to make an admin (`npm run admin -- grant|revoke <email>`).
 * It takes effect on the user's next request: every session reads its role from the row.
 */
export async function changeAdmin(
  db: Db,
  change: AdminChange,
  rawEmail: string,
): Promise<{ id: string; email: string; wasAdmin: boolean }> {
  const email = emailSchema.parse(rawEmail);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    if (!user) throw new UnknownUserError(email);
    await tx
      .update(users)
      .set({ isAdmin: change === "grant" })
      .where(eq(users.id, user.id));
    return { id: user.id, email, wasAdmin: user.isAdmin };
  });
}

export const ADMIN_USAGE = "usage: npm run admin -- grant|revoke <email>";

const adminArgs = z.tuple([z.enum(["grant", "revoke"]), z.string()]);

/** `grant|revoke <email>` from the command line, or an error whose message says what was wrong and the usage. */
export function parseAdminArgs(argv: readonly string[]): { change: AdminChange; email: string } {
  const parsed = adminArgs.safeParse(argv);
  if (!parsed.success) throw new Error(`expected "grant" or "revoke" and one email\n${ADMIN_USAGE}`);
  const [change, raw] = parsed.data;
  const email = emailSchema.safeParse(raw);
  if (!email.success) throw new Error(`"${raw}" is not an email address\n${ADMIN_USAGE}`);
  return { change, email: email.data };
}

/** What the command prints once the flag is set. */
export function describeAdminChange(change: AdminChange, result: { email: string; wasAdmin: boolean }): string {
  const now = change === "grant";
  if (result.wasAdmin === now) return `${result.email} ${now ? "was already" : "was not"} an admin; nothing changed.`;
  return now
    ? `${result.email} is now an admin (from their next request).`
    : `${result.email} is no longer an admin (from their next request; ADMIN_EMAILS may still list a verified address).`;
}
