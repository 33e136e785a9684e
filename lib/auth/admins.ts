import { eq } from "drizzle-orm";
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
