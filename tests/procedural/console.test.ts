import { expect, it } from "vitest";
import { revertInstructionsTo, saveInstructions } from "@/lib/console/instructions";
import { instructionHistory } from "@/lib/memory/procedural";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("console instructions actions", (use) => {
  it("saves against the version shown, refuses a stale one, and reverts as a new version", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    expect(await saveInstructions(ctx, { text: "Use metric units.", expectedVersion: 0 })).toEqual({
      ok: true,
      version: 1,
    });
    expect(await saveInstructions(ctx, { text: "Use imperial units.", expectedVersion: 0 })).toMatchObject({
      ok: false,
      error: { code: "conflict", message: expect.stringMatching(/Expected instructions version 0/) },
    });
    expect(await saveInstructions(ctx, { text: "Use imperial units.", expectedVersion: 1 })).toMatchObject({
      ok: true,
      version: 2,
    });
    expect(await revertInstructionsTo(ctx, 1)).toEqual({ ok: true, version: 3 });
    expect(await revertInstructionsTo(ctx, 99)).toMatchObject({ ok: false, error: { code: "not_found" } });
    for (const bad of [{ text: 5, expectedVersion: 0 }, { text: "x".repeat(4_001), expectedVersion: 0 }, {}]) {
      expect(await saveInstructions(ctx, bad)).toMatchObject({ ok: false, error: { code: "unprocessable" } });
    }
    expect(await revertInstructionsTo(ctx, "1")).toMatchObject({ ok: false, error: { code: "unprocessable" } });
    expect((await instructionHistory(ctx)).map((version) => [version.version, version.text, version.reason])).toEqual([
      [3, "Use metric units.", "reverted to version 1"],
      [2, "Use imperial units.", "edited by hand"],
      [1, "Use metric units.", "edited by hand"],
    ]);
  });
});
