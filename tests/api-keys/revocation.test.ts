import { expect, it, vi } from "vitest";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor } from "./support";

/** lib/auth/api-keys as a separate module instance, the way Next evaluates it once per bundle of one process. */
async function freshKeysModule() {
  vi.resetModules();
  return import("@/lib/auth/api-keys");
}

describeEachDatabase("revoking an API key", (use) => {
  it("locks the key out at once in every bundle of the process, even one that has its row cached", async () => {
    const database = use();
    const userId = await createUser(database);
    const owner = { database, principal: principalFor(userId) };
    const routes = await freshKeysModule();
    const console = await freshKeysModule();
    expect(routes).not.toBe(console);

    const { id, key } = await routes.createApiKey(owner, { name: "app", scopes: ["read"] });
    expect((await routes.authenticateApiKey(database, key)).ok).toBe(true);
    await console.revokeApiKey(owner, id);
    expect(await routes.authenticateApiKey(database, key)).toEqual({ ok: false, reason: "revoked" });
  });
});
