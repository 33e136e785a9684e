import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, with no type declarations
import { workerBundle } from "../../scripts/worker-bundle.mjs";

const outDir = mkdtempSync(path.join(tmpdir(), "worker-bundle-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it("`npm run worker` builds its bundle once, and again only when a file it was built from is newer", async () => {
  const first = await workerBundle(outDir);
  expect(first).toEqual({ bundle: path.join(outDir, "worker.mjs"), built: true });
  expect(await workerBundle(outDir)).toEqual({ bundle: first.bundle, built: false });

  // As if lib/ had been edited after the build: the bundle is older than its sources.
  const yesterday = new Date(Date.now() - 86_400_000);
  utimesSync(first.bundle, yesterday, yesterday);
  expect(await workerBundle(outDir)).toEqual({ bundle: first.bundle, built: true });
  expect(statSync(first.bundle).mtimeMs).toBeGreaterThan(yesterday.getTime());
});

it("a build input a deployment lacks (no lockfile) is recorded as absent: starts stay fresh, and an input that goes missing rebuilds", async () => {
  const { bundle } = await workerBundle(outDir);
  const inputsFile = path.join(outDir, "inputs.json");
  const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
  writeFileSync(inputsFile, JSON.stringify({ ...inputs, "no-such-lockfile.json": null }));
  expect(await workerBundle(outDir)).toEqual({ bundle, built: false });
  // The same input recorded as present: now missing, it is a change.
  writeFileSync(inputsFile, JSON.stringify({ ...inputs, "no-such-lockfile.json": 1 }));
  expect(await workerBundle(outDir)).toEqual({ bundle, built: true });
});
