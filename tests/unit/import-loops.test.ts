import madge from "madge";
import { expect, it } from "vitest";

// A loop between modules makes their load order decide what each sees (an import read before it is set), and means
// neither can be understood or moved alone (docs/architecture.md).
it("finds no import loop among the app's modules", async () => {
  const graph = await madge(["lib", "app", "components", "proxy.ts"], {
    fileExtensions: ["ts", "tsx"],
    tsConfig: "tsconfig.json",
  });
  // The graph must be the real one: a broken alias resolution would find no edges, and so no loop.
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(200);
  expect(graph.depends("lib/db/client.ts")).toContain("lib/db/unit-of-work.ts");
  expect(graph.circular()).toEqual([]);
}, 120_000);
