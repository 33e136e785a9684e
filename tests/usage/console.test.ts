import "../support/route-mocks";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, expect, it } from "vitest";
import { extractionRuns, modelUsage } from "@/lib/db/schema";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";

const { default: UsagePage } = await import("@/app/(console)/memories/usage/page");
const { default: RunsPage } = await import("@/app/(console)/memories/runs/page");

/** The page as HTML: async server components resolve to an element tree of synchronous ones. */
const html = async (element: Promise<unknown>) =>
  renderToStaticMarkup((await element) as Parameters<typeof renderToStaticMarkup>[0]);
const plain = (markup: string) => markup.replace(/<[^>]+>/g, "").replaceAll("&#x27;", "'");

describeEachDatabase("console: usage and cost", (use) => {
  let userId: string;
  let runId: string;
  beforeAll(async () => {
    userId = await createUser(use());
    const other = await createUser(use());
    const [run] = await use()
      .unbound.db.insert(extractionRuns)
      .values({
        userId,
        threadId: "t1",
        namespace: ["users", userId],
        status: "succeeded",
        fromPosition: 0,
        throughPosition: 2,
        inputTokens: 2_000,
        outputTokens: 300,
      })
      .returning({ id: extractionRuns.id });
    runId = run!.id;
    await use()
      .unbound.db.insert(extractionRuns)
      .values({
        userId,
        threadId: "t1",
        namespace: ["users", userId],
        status: "skipped",
        fromPosition: 2,
        throughPosition: 4,
        error: "daily budget of $1.00 reached ($1.20 spent today, UTC): background extraction resumes tomorrow",
      });
    const now = new Date();
    await use()
      .unbound.db.insert(modelUsage)
      .values([
        {
          userId,
          kind: "chat",
          model: "openai:gpt-4o",
          inputTokens: 12_345,
          outputTokens: 678,
          costUsd: 1.0,
          createdAt: now,
        },
        {
          userId,
          kind: "extraction",
          model: "openai:gpt-4o",
          inputTokens: 2_000,
          outputTokens: 300,
          costUsd: 0.2,
          runId,
          createdAt: now,
        },
        {
          userId: other,
          kind: "chat",
          model: "openai:gpt-4o",
          inputTokens: 99_999,
          outputTokens: 9,
          costUsd: 55.55,
          createdAt: now,
        },
      ]);
  });
  beforeEach(() => {
    routeHarness.database = use();
    routeHarness.principal = principalFor(userId);
    restoreEnv();
  });

  it("shows today's tokens and cost, in all and by kind, and no one else's", async () => {
    const text = plain(await html(UsagePage()));
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain(today);
    expect(text).toContain("$1.20");
    expect(text).toContain("14,345 in / 978 out · 2 calls");
    expect(text).toContain("12,345 in / 678 out · 1 call");
    expect(text).toContain("2,000 in / 300 out · 1 call");
    expect(text).toContain("No daily budget is set.");
    expect(text).not.toContain("99,999");
    expect(text).not.toContain("55.55");
    expect(text).not.toContain("Background extraction is paused");
  });

  it("says plainly when the budget has stopped background extraction today", async () => {
    setEnv({ EXTRACTION_DAILY_BUDGET_USD: "1" });
    const usage = plain(await html(UsagePage()));
    expect(usage).toContain("Background extraction is paused until tomorrow (UTC).");
    expect(usage).toContain("Today's model spend of $1.20 reached the daily budget of $1.00");
    expect(usage).toContain("1 extraction run was skipped today.");
  });

  it("lists each run's cost and the budget notice on the runs page", async () => {
    setEnv({ EXTRACTION_DAILY_BUDGET_USD: "1" });
    const runs = plain(await html(RunsPage({ searchParams: Promise.resolve({}) })));
    expect(runs).toContain("Background extraction is paused until tomorrow (UTC).");
    expect(runs).toMatch(/2000 in \/ 300 out tokens · \$0\.20/);
    const skipped = plain(await html(RunsPage({ searchParams: Promise.resolve({ status: "skipped" }) })));
    expect(skipped).toContain(
      "Skipped: daily budget of $1.00 reached ($1.20 spent today, UTC): background extraction resumes tomorrow",
    );
    expect(skipped).not.toContain("$0.20");
  });
});
