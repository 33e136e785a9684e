import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { EXPORT_FORMAT, EXPORT_VERSION } from "@/lib/console/export-format";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const actions = await import("@/app/(console)/memories/actions");

const memory = (index: number) => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
  namespace: [],
  key: `imported-${index}`,
  kind: "memory",
  content: { content: `Imported fact ${index}` },
  text: `Imported fact ${index}`,
  status: "active",
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  source: { type: "api" },
  actor: { type: "user", id: "someone" },
});

const exportOf = (count: number) =>
  JSON.stringify({
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: "2026-01-01T00:00:00.000Z",
    memories: Array.from({ length: count }, (_, index) => memory(index)),
  });

describeEachDatabase("console import bounds", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });
  const stored = async () =>
    (await use().unbound.rows<{ n: number }>(sql`select count(*)::int as n from memories where user_id = ${me}`))[0]?.n;

  it("takes at most 1,000 memories and 8 MB per call, as one REST batch, with an error that says so", async () => {
    const tooMany = await actions.importAction({ file: exportOf(1_001), apply: true });
    expect(tooMany).toMatchObject({
      ok: false,
      error: {
        code: "payload_too_large",
        message:
          'This file holds 1,001 memories; one import takes at most 1,000. Split its "memories" list into files of at most that many and import each.',
      },
    });
    const tooLarge = await actions.importAction({ file: "x".repeat(8 * 1024 * 1024 + 1), apply: true });
    expect(tooLarge).toMatchObject({
      ok: false,
      error: { message: "Invalid input: file: The file is larger than 8 MB, the most one import takes." },
    });
    expect(await stored()).toBe(0);
    expect(await actions.importAction({ file: exportOf(1_000), apply: true })).toMatchObject({
      ok: true,
      outcome: "applied",
      created: 1_000,
    });
    expect(await stored()).toBe(1_000);
  });
});
