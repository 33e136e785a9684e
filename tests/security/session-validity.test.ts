import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withVerifiedEmail } from "@/lib/auth/github-profile";
import { checkSession, revokeSessions } from "@/lib/auth/session-validity";
import { registerUser, userForOAuth } from "@/lib/auth/users";
import { users } from "@/lib/db/schema";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";

const password = "a long enough password";
let unique = 0;
const nextEmail = () => `person-${++unique}@example.com`;

describeEachDatabase("session validity", (use) => {
  const row = async (id: string) => (await use().unbound.db.select().from(users).where(eq(users.id, id)))[0]!;
  const setLastActive = (id: string, at: Date) =>
    use().unbound.db.update(users).set({ lastActiveAt: at }).where(eq(users.id, id));

  it("stands only for the generation it was issued in", async () => {
    const { db } = use().unbound;
    const user = await registerUser(db, { email: nextEmail(), password });
    expect(await checkSession(db, { uid: user.id, generation: 0 })).toMatchObject({ role: "user", isGuest: false });
    expect(await revokeSessions(db, user.id)).toBe(true);
    expect(await checkSession(db, { uid: user.id, generation: 0 })).toBeNull();
    expect(await checkSession(db, { uid: user.id, generation: 1 })).not.toBeNull();
    expect(await revokeSessions(db, crypto.randomUUID())).toBe(false);
  });

  it("records activity when the last record is over an hour old, and not on every request", async () => {
    const { db } = use().unbound;
    const user = await registerUser(db, { email: nextEmail(), password });
    const now = new Date("2030-06-01T12:00:00Z");
    const recent = new Date(now.getTime() - 59 * 60 * 1000);
    await setLastActive(user.id, recent);
    await checkSession(db, { uid: user.id, generation: 0 }, now);
    expect((await row(user.id)).lastActiveAt).toEqual(recent);
    const old = new Date(now.getTime() - 61 * 60 * 1000);
    await setLastActive(user.id, old);
    await checkSession(db, { uid: user.id, generation: 0 }, now);
    expect((await row(user.id)).lastActiveAt).toEqual(now);
  });

  it("makes a verified OAuth email in ADMIN_EMAILS admin, and neither an unverified one nor a registered one", async () => {
    const { db } = use().unbound;
    const verified = nextEmail();
    const unverified = nextEmail();
    const registered = nextEmail();
    const adminEmails = [verified, unverified, registered].join(",");
    setEnv({ ADMIN_EMAILS: adminEmails });
    try {
      const viaGithub = await userForOAuth(db, "github", `v-${unique}`, { email: verified, emailVerified: true });
      const unchecked = await userForOAuth(db, "github", `u-${unique}`, { email: unverified, emailVerified: false });
      const byPassword = await registerUser(db, { email: registered, password });
      expect(viaGithub.emailVerifiedAt).not.toBeNull();
      expect(unchecked.emailVerifiedAt).toBeNull();
      expect(byPassword.emailVerifiedAt).toBeNull();
      const roleOf = async (uid: string) => (await checkSession(db, { uid, generation: 0 }))?.role;
      expect(await roleOf(viaGithub.id)).toBe("admin");
      expect(await roleOf(unchecked.id)).toBe("user");
      expect(await roleOf(byPassword.id)).toBe("user");
      // Verified on a later sign-in (the user confirmed the address at GitHub meanwhile).
      await userForOAuth(db, "github", `u-${unique}`, { email: unverified, emailVerified: true });
      expect(await roleOf(unchecked.id)).toBe("admin");
    } finally {
      restoreEnv();
    }
  });
});

describe("GitHub's email, verified or not", () => {
  const profile = { id: 7, login: "octo", email: "public@example.com" };

  it("takes the primary email with GitHub's verified flag from the email list", () => {
    const emails = [
      { email: "other@example.com", primary: false, verified: true },
      { email: "main@example.com", primary: true, verified: false },
    ];
    expect(withVerifiedEmail(profile, emails)).toMatchObject({ email: "main@example.com", email_verified: false });
    emails[1]!.verified = true;
    expect(withVerifiedEmail(profile, emails)).toMatchObject({ email: "main@example.com", email_verified: true });
  });

  it("keeps the public email as unverified when the list is missing or malformed", () => {
    expect(withVerifiedEmail(profile, null)).toMatchObject({ email: "public@example.com", email_verified: false });
    expect(withVerifiedEmail(profile, { message: "Not Found" })).toMatchObject({ email_verified: false });
    expect(withVerifiedEmail({ id: 7 }, [])).toMatchObject({ email: null, email_verified: false });
  });
});
