import "../support/route-mocks";
import { execFile } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asSchema, type FlexibleSchema } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { LIMITS, manageMemoryOutput } from "@/lib/memory/contract";
import { call, principalFor } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";
import { type RouteServer, startRouteServer } from "../support/route-server";

const run = promisify(execFile);
const repo = process.cwd();
const consumer = path.join(repo, "tests/sdk/consumer");

const keys = await import("@/app/api/v1/keys/route");
const keyItem = await import("@/app/api/v1/keys/[id]/route");
const routes = {
  "/api/v1/me": await import("@/app/api/v1/me/route"),
  "/api/v1/memories": await import("@/app/api/v1/memories/route"),
  "/api/v1/memories/batch": await import("@/app/api/v1/memories/batch/route"),
  "/api/v1/memories/search": await import("@/app/api/v1/memories/search/route"),
  "/api/v1/memories/[id]": await import("@/app/api/v1/memories/[id]/route"),
  "/api/v1/memories/[id]/history": await import("@/app/api/v1/memories/[id]/history/route"),
  "/api/v1/memories/[id]/restore": await import("@/app/api/v1/memories/[id]/restore/route"),
  "/api/v1/proposals": await import("@/app/api/v1/proposals/route"),
  "/api/v1/rules": await import("@/app/api/v1/rules/route"),
  "/api/v1/settings": await import("@/app/api/v1/settings/route"),
  "/api/langgraph/store/items": await import("@/app/api/langgraph/store/items/route"),
  "/api/langgraph/store/items/search": await import("@/app/api/langgraph/store/items/search/route"),
  "/api/langgraph/store/namespaces": await import("@/app/api/langgraph/store/namespaces/route"),
};

let scratch: string;
let app: string;

/**
 * Another app, made as its developer would: the tarball `npm pack` makes of sdk/ unpacked into its node_modules, and
 * the peers it brings itself (ai, zod, @langchain/langgraph-checkpoint, and LangGraph itself for its graph) linked from this checkout's node_modules, so
 * the test needs no registry.
 */
beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "ml-sdk-"));
  await run("npm", ["pack", "--pack-destination", scratch], { cwd: path.join(repo, "sdk") });
  const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack made no tarball");
  app = path.join(scratch, "app");
  const installed = path.join(app, "node_modules/@memory-ledger/sdk");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", path.join(scratch, tarball), "-C", installed, "--strip-components=1"]);
  for (const name of ["ai", "zod", "@langchain/langgraph-checkpoint", "@langchain/langgraph", "@langchain/core"]) {
    const link = path.join(app, "node_modules", name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(realpathSync(path.join(repo, "node_modules", name)), link, "dir");
  }
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "another-app", private: true, type: "module" }));
  for (const file of ["agent.mjs", "types-check.mts"]) copyFileSync(path.join(consumer, file), path.join(app, file));
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed SDK", () => {
  it("holds only the built package, with the server's schemas compiled in", async () => {
    const files = (
      await run("tar", ["-tzf", path.join(scratch, readdirSync(scratch).find((n) => n.endsWith(".tgz"))!)])
    ).stdout
      .split("\n")
      .filter(Boolean);
    expect(files).toContain("package/dist/sdk/src/index.js");
    expect(files).toContain("package/dist/lib/memory/contract/shapes.d.ts");
    const metadata = new Set(["package/package.json", "package/README.md"]);
    expect(files.filter((file) => !file.startsWith("package/dist/") && !metadata.has(file))).toEqual([]);
    expect(files.some((file) => /lib\/(db|auth|chat)\//.test(file))).toBe(false);
  });

  it("type-checks another app's calls with Node's module resolution, refusing what the server would refuse", async () => {
    writeFileSync(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: [],
          lib: ["ES2023", "DOM"],
        },
        files: ["types-check.mts"],
      }),
    );
    const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", path.join(app, "tsconfig.json")]).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("ok");
  }, 120_000);
});

describeEachDatabase("the SDK in another app, against a running server", (use) => {
  let server: RouteServer;

  beforeAll(async () => {
    routeHarness.database = use();
    server = await startRouteServer(routes);
  });

  afterAll(async () => {
    await server?.close();
  });

  async function issueKey(userId: string) {
    routeHarness.principal = principalFor(userId);
    const response = await call(keys.POST, { method: "POST", body: { name: "sdk", scopes: ["read", "write"] } });
    routeHarness.principal = null;
    return response.json as { id: string; key: string };
  }

  async function revokeKey(userId: string, id: string) {
    routeHarness.principal = principalFor(userId);
    await call(keyItem.DELETE, { method: "DELETE", params: { id } });
    routeHarness.principal = null;
  }

  it("runs an AI SDK tool loop, the typed client and the LangGraph store over HTTP", async () => {
    routeHarness.database = use();
    const userId = await createUser(use());
    const { key: apiKey } = await issueKey(userId);
    const revoked = await issueKey(userId);
    await revokeKey(userId, revoked.id);
    const { stdout } = await run(process.execPath, ["agent.mjs"], {
      cwd: app,
      env: { ...process.env, MEMORY_LEDGER_URL: server.origin, MEMORY_LEDGER_KEY: apiKey, REVOKED_KEY: revoked.key },
      timeout: 90_000,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`the consumer app failed:\n${error.stderr ?? ""}\n${error.stdout ?? ""}`);
    });
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!);

    // The model was offered the chat's own tools (names, descriptions, JSON schemas), saved a memory, then found it.
    const chat = createMemoryTools(contextFor(use(), userId));
    expect(report.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(Object.keys(chat).sort());
    for (const [name, chatTool] of Object.entries(chat)) {
      const offered = report.tools.find((tool: { name: string }) => tool.name === name);
      expect(offered.description, name).toBe(chatTool.description);
      expect(offered.inputSchema, name).toEqual(
        await asSchema(chatTool.inputSchema as FlexibleSchema<unknown>).jsonSchema,
      );
    }
    const [added, searched] = report.steps;
    expect(added).toEqual([
      {
        toolName: "manage_memory",
        output: {
          action: "created",
          id: expect.any(String),
          text: "The user's favourite tea is oolong",
          kind: "memory",
          namespace: ["agents", "tea"],
          updatedAt: expect.any(String),
          version: 1,
        },
      },
    ]);
    expect(manageMemoryOutput.parse(added[0].output)).toEqual(added[0].output);
    // The search answers with the same memory, in the same shape, its score and its confidence: a confident hit.
    const { action: _action, version: _version, ...memory } = added[0].output;
    expect(searched).toEqual([
      { toolName: "search_memory", output: [{ ...memory, score: expect.any(Number), confidence: expect.any(Number) }] },
    ]);
    expect(searched[0].output[0].confidence).toBeGreaterThanOrEqual(LIMITS.confidenceFloor);
    expect(report.searchResultSeenByModel).toBe(true);
    expect(report.text).toBe("Your favourite tea is oolong.");
    expect(report.datedUpdate).toMatch(/cannot keep the old value as history/);
    expect(report.afterDatedUpdate).toBe("The user's favourite tea is oolong");

    expect(report.client).toEqual({
      me: "user",
      created: { kind: "memory", namespace: ["health"], version: 1 },
      updated: 2,
      listed: ["Allergic to peanuts and cashews"],
      searched: true,
      deleted: "deleted",
      restored: "active",
      history: ["create", "update", "delete", "restore"],
      batch: { created: 1, rejected: [1] },
      listAll: 3,
    });
    expect(report.errors).toEqual({
      notFound: {
        isMemoryLedgerError: true,
        code: "not_found",
        status: 404,
        message: expect.stringMatching(/No memory/),
      },
      conflict: { isMemoryLedgerError: true, code: "conflict", status: 409, message: expect.any(String) },
      invalid: {
        isMemoryLedgerError: true,
        code: "unprocessable",
        status: 422,
        message: expect.stringMatching(/namespace/),
      },
      badKey: {
        isMemoryLedgerError: true,
        code: "unauthorized",
        status: 401,
        message: expect.stringMatching(/^The API key is (malformed|not recognised)\.$/),
      },
      revokedKey: {
        isMemoryLedgerError: true,
        code: "unauthorized",
        status: 401,
        message: expect.stringMatching(/revoked/),
      },
    });
    expect(report.review).toEqual({
      rule: { text: "Never remember my salary", terms: ["salary"] },
      rules: [true],
      settings: { review: "deletes" },
      proposals: 0,
      refusedByRule: expect.objectContaining({ isMemoryLedgerError: true, status: 422 }),
      keyMayNotSwitchReviewOff: expect.objectContaining({ isMemoryLedgerError: true, status: 403 }),
    });
    expect(report.review.refusedByRule.message).toMatch(/Never remember my salary/);
    expect(report.retried).toEqual({ role: "user", refused: 2 });
    expect(report.givesUp).toMatchObject({ code: "rate_limited", status: 429, message: "Slow down." });
    expect(report.longRetryAfter).toMatchObject({ code: "rate_limited", status: 429, message: "Wait a minute." });
    expect(report.longRetryAfter.waitedMs).toBeLessThan(1_000);

    // A LangGraph graph compiled with MemoryLedgerStore wrote through it and found what it wrote.
    expect(report.graph).toEqual({
      answer: "The user drinks flat whites",
      stored: { text: "The user drinks flat whites", namespace: ["agent"] },
    });
    expect(report.store).toEqual({
      got: { namespace: ["prefs", "editor"], key: "font", value: { family: "Iosevka", size: 14 }, dates: true },
      missing: null,
      queried: [{ key: "theme", scored: true }],
      filtered: ["ledger"],
      namespaces: [["agents", "tea"], ["health"], ["prefs", "editor"], ["projects"]],
      shallow: [["prefs"]],
      afterDelete: null,
      batched: [null, { content: "Batch note" }, ["n1"], null, null],
      reservedRoot: "InvalidNamespaceError",
    });
  }, 120_000);
});
