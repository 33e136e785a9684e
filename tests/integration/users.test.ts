import { expect, it } from "vitest";
import {
  createGuestUser,
  EmailTakenError,
  findUser,
  registerUser,
  userForOAuth,
  verifyCredentials,
} from "@/lib/auth/users";
import { describeEachDatabase } from "../support/databases";

const password = "a long enough password";

describeEachDatabase("user accounts", (use) => {
  it("registers, verifies the right password and rejects a wrong one or an unknown email", async () => {
    const { db } = use().unbound;
    const user = await registerUser(db, { email: "ann@example.com", password, name: "Ann" });
    expect(user.passwordHash).not.toContain(password);
    expect((await verifyCredentials(db, "ann@example.com", password))?.id).toBe(user.id);
    expect(await verifyCredentials(db, "ann@example.com", "wrong password")).toBeNull();
    expect(await verifyCredentials(db, "nobody@example.com", password)).toBeNull();
  });

  it("refuses a second account with the same email", async () => {
    const { db } = use().unbound;
    await registerUser(db, { email: "dup@example.com", password });
    await expect(registerUser(db, { email: "dup@example.com", password })).rejects.toBeInstanceOf(EmailTakenError);
  });

  it("upgrades a guest in place so its id, and everything keyed by it, stays", async () => {
    const { db } = use().unbound;
    const guest = await createGuestUser(db);
    expect(guest.isGuest).toBe(true);
    const upgraded = await registerUser(db, { email: "guest@example.com", password }, guest.id);
    expect(upgraded.id).toBe(guest.id);
    expect(upgraded.isGuest).toBe(false);
    expect((await findUser(db, guest.id))?.email).toBe("guest@example.com");
  });

  it("never turns a registered account back into a new one through the guest path", async () => {
    const { db } = use().unbound;
    const member = await registerUser(db, { email: "member@example.com", password });
    const other = await registerUser(db, { email: "other@example.com", password }, member.id);
    expect(other.id).not.toBe(member.id);
    expect((await findUser(db, member.id))?.email).toBe("member@example.com");
  });

  it("links an OAuth identity once and never to a password account by email alone", async () => {
    const { db } = use().unbound;
    const owner = await registerUser(db, { email: "octo@example.com", password });
    const first = await userForOAuth(db, "github", "42", { email: "octo@example.com", name: "Octo" });
    expect(first.id).not.toBe(owner.id);
    expect(first.email).toBeNull();
    const again = await userForOAuth(db, "github", "42", { email: "octo@example.com" });
    expect(again.id).toBe(first.id);
  });
});
