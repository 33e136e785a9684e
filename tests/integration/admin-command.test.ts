import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_USAGE, changeAdmin, parseAdminArgs, UnknownUserError } from "@/lib/auth/admins";
import { registerUser } from "@/lib/auth/users";
import { openPglite } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { describeEachDatabase, openMigratedPglite } from "../support/databases";

describe("npm run admin, as the operator runs it", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "admin-command-"));
  const dataDir = path.join(dir, "pglite");

  beforeAll(async () => {
    const database = await openMigratedPglite(dataDir);
    await registerUser(database.unbound.db, { email: "ops@example.com", password: "a long enough password" });
    await database.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Each run starts Node, compiles the script's imports and boots PGlite: seconds each, many more on a loaded CI
  // machine, so the test's time limit is the two runs' own.
  const RUN_TIMEOUT_MS = 60_000;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: dataDir },
      encoding: "utf8",
      timeout: RUN_TIMEOUT_MS,
    });

  it(
    "grants the flag to an existing user and says so; an unknown email exits non-zero, changing nothing",
    async () => {
      const granted = run("grant", "OPS@example.com");
      expect(granted.stderr).toBe("");
      expect(granted.status).toBe(0);
      expect(granted.stdout).toContain("ops@example.com is now an admin");

      const unknown = run("grant", "nobody@example.com");
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain("No user has the email nobody@example.com");

      const database = await openPglite(dataDir);
      try {
        const rows = await database.unbound.db.select({ email: users.email, isAdmin: users.isAdmin }).from(users);
        expect(rows).toEqual([{ email: "ops@example.com", isAdmin: true }]);
      } finally {
        await database.close();
      }
    },
    2 * RUN_TIMEOUT_MS + 10_000,
  );
});

describe("admin command arguments", () => {
  it("takes grant or revoke and one email, and names the usage otherwise", () => {
    expect(parseAdminArgs(["revoke", " Ops@Example.com "])).toEqual({ change: "revoke", email: "ops@example.com" });
    for (const bad of [[], ["grant"], ["promote", "ops@example.com"], ["grant", "a@b.c", "extra"], ["grant", "x"]]) {
      expect(() => parseAdminArgs(bad), JSON.stringify(bad)).toThrow(ADMIN_USAGE);
    }
  });
});

describeEachDatabase("admin flag", (use) => {
  it("sets and clears is_admin for a known email and refuses an unknown one", async () => {
    const { db } = use().unbound;
    const user = await registerUser(db, { email: "flag@example.com", password: "a long enough password" });
    const isAdmin = async () => (await db.select().from(users).where(eq(users.id, user.id)))[0]?.isAdmin;
    expect(await changeAdmin(db, "grant", "flag@example.com")).toMatchObject({ id: user.id, wasAdmin: false });
    expect(await isAdmin()).toBe(true);
    expect(await changeAdmin(db, "revoke", "flag@example.com")).toMatchObject({ wasAdmin: true });
    expect(await isAdmin()).toBe(false);
    await expect(changeAdmin(db, "grant", "ghost@example.com")).rejects.toBeInstanceOf(UnknownUserError);
  });
});
