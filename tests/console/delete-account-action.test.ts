import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it, vi } from "vitest";
import { createMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const signOuts: unknown[] = [];
vi.mock("@/lib/auth/authjs", () => ({
  signOut: async (options: unknown) => {
    signOuts.push(options);
  },
}));

const { deleteAccountAction } = await import("@/app/(console)/settings/account-actions");

describeEachDatabase("the console's delete-account action", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    signOuts.length = 0;
    await createMemory(contextFor(use(), me), { content: "Mine" });
  });

  const exists = async (userId: string) =>
    (await use().unbound.rows(sql`select 1 from users where id = ${userId}`)).length > 0;

  it("deletes nothing without the typed confirmation", async () => {
    expect(await deleteAccountAction("delete")).toMatchObject({ ok: false, error: { code: "unprocessable" } });
    expect(await exists(me)).toBe(true);
    expect(signOuts).toEqual([]);
  });

  it("deletes the account with everything in it and ends this browser's session", async () => {
    expect(await deleteAccountAction("delete my account")).toEqual({ ok: true });
    expect(await exists(me)).toBe(false);
    expect(await use().unbound.rows(sql`select 1 from memories where user_id = ${me}`)).toEqual([]);
    expect(signOuts).toEqual([{ redirect: false }]);
  });
});
