import "../support/route-mocks";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";

const APP = join(process.cwd(), "app");

/** Every module of app/ that declares server actions, except the sign-in forms (their callers have no session). */
function serverActionModules(directory = APP): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return serverActionModules(path);
    if (!/\.tsx?$/.test(entry.name) || !/^["']use server["']/m.test(readFileSync(path, "utf8"))) return [];
    return path === join(APP, "(auth)", "actions.ts") ? [] : [path];
  });
}

/** An action's answer once refused: the failure it returns, or the AppError it throws (a read with no result shape). */
async function refusalOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    const result = (await run()) as { ok?: boolean; error?: { code?: string } } | undefined;
    return result?.ok === false ? result.error?.code : "answered";
  } catch (error) {
    return error instanceof AppError ? error.code : `threw ${String(error)}`;
  }
}

describeEachDatabase("server actions and the session rate limit", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    setEnv({ API_RATE_LIMIT_PER_MINUTE: "2" });
  });

  it("a console action is refused with rate_limited once the person's per-minute budget is spent, writing nothing", async () => {
    const actions = await import("@/app/(console)/memories/actions");
    const memory = await createMemory(contextFor(use(), me), { content: "Likes tea" });
    const edit = (content: string, expectedVersion: number) =>
      actions.editMemoryAction({ id: memory.id, expectedVersion, content: { content } });
    expect(await edit("Likes coffee", 1)).toMatchObject({ ok: true });
    expect(await edit("Likes cocoa", 2)).toMatchObject({ ok: true });
    expect(await edit("Likes water", 3)).toEqual({
      ok: false,
      error: { code: "rate_limited", message: "Too many requests for this account; retry later.", details: [] },
    });
    const [row] = await use().unbound.rows<{ text: string }>(sql`select text from memories where id = ${memory.id}`);
    expect(row?.text).toBe("Likes cocoa");
  });

  it("every server action of a signed-in person draws on that budget before it reads its input", async () => {
    setEnv({ API_RATE_LIMIT_PER_MINUTE: "1" });
    const modules = serverActionModules();
    expect(modules.length).toBeGreaterThanOrEqual(7);
    const answers: Record<string, string | undefined> = {};
    let first = true;
    for (const path of modules) {
      const module = (await import(path)) as Record<string, unknown>;
      for (const [name, action] of Object.entries(module)) {
        if (typeof action !== "function") continue;
        // The first call spends the budget (whatever it answers); every later one must be refused for it.
        const answer = await refusalOf(() => action(undefined, new FormData()));
        if (first) first = false;
        else answers[`${relative(APP, path)} ${name}`] = answer;
      }
    }
    expect(Object.keys(answers).length).toBeGreaterThanOrEqual(20);
    for (const [action, answer] of Object.entries(answers)) expect(answer, action).toBe("rate_limited");
  });
});
