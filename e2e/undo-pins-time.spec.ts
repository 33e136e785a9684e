import { expect, type Locator, type Page, test } from "@playwright/test";
import { say } from "./chat-support";

const SCREENS = "test-results/screens";

async function createMemory(page: Page, body: Record<string, unknown>) {
  const response = await page.request.post("/api/v1/memories", { data: body });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { memory: { id: string; text: string } }).memory;
}

async function getMemory(page: Page, id: string) {
  const response = await page.request.get(`/api/v1/memories/${id}`);
  return ((await response.json()) as { memory: { status: string; pinned: boolean; version: number } }).memory;
}

/** Clicks until the click takes effect: a click that lands before hydration does nothing. */
async function clickUntil(page: Page, button: string | RegExp, appears: Locator) {
  await expect(async () => {
    await page.getByRole("button", { name: button }).first().click({ timeout: 2_000 });
    await expect(appears).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

test("a run's applied ops are undone from the runs page, once", async ({ page }) => {
  await page.goto("/");
  // The chat saves ten facts of one message; the background manager writes the rest, so the run applies an insert.
  await say(
    page,
    "I play the cello. I speak Portuguese. I drive a Volvo. I grow tomatoes. I collect stamps. I teach yoga. " +
      "I own a kayak. I knit scarves. I bake sourdough. I study Japanese. I coach hockey. I sail dinghies.",
  );
  const threadId = page.url().split("/chat/")[1]!;
  let run: { id: string; opsApplied: { memoryId: string }[] } | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get(`/api/v1/threads/${threadId}/extraction`)).json()) as {
          runs: Array<{ id: string; status: string; opsApplied: { memoryId: string }[] }>;
        };
        run = body.runs.find((entry) => entry.status === "succeeded" && entry.opsApplied.length > 0);
        return Boolean(run);
      },
      { timeout: 45_000 },
    )
    .toBe(true);
  const memoryId = run!.opsApplied[0]!.memoryId;
  expect((await getMemory(page, memoryId)).status).toBe("active");

  await page.goto("/memories/runs");
  const card = page.getByRole("article", { name: `Extraction run ${run!.id}` });
  await expect(card.getByRole("button", { name: "Undo this run" })).toBeVisible();
  // A click before hydration does nothing; once it lands the run shows as reverted and the button is gone.
  const undo = card.getByRole("button", { name: "Undo this run" });
  await expect(async () => {
    if (await undo.isVisible()) await undo.click({ timeout: 2_000 });
    await expect(card.getByTestId("run-reverted")).toBeVisible({ timeout: 2_000 });
  }).toPass();
  expect((await getMemory(page, memoryId)).status).toBe("deleted");
  await page.reload();
  await expect(card.getByTestId("run-reverted")).toBeVisible();
  await expect(card.getByRole("button", { name: "Undo this run" })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/runs-reverted.png`, fullPage: true });

  const again = await page.request.post(`/api/v1/extraction-runs/${run!.id}/revert`);
  expect(again.status()).toBe(409);
  const history = (await (await page.request.get(`/api/v1/memories/${memoryId}/history`)).json()) as {
    versions: { op: string; reason: string | null; actor: { type: string } }[];
  };
  expect(history.versions.at(-1)).toMatchObject({
    op: "delete",
    reason: `reverted extraction run ${run!.id}`,
    actor: { type: "user" },
  });
});

test("a pinned memory is marked, and recalled in a chat about something else", async ({ page }) => {
  await page.goto("/");
  const memory = await createMemory(page, { content: "User is allergic to shellfish" });
  await page.goto(`/memories/${memory.id}`);
  await clickUntil(page, /^Pin$/, page.getByTestId("pinned-badge"));
  expect(await getMemory(page, memory.id)).toMatchObject({ pinned: true, version: 2 });
  await expect(page.getByTestId("history-pin").first()).toHaveText("Pinned");
  await page.screenshot({ path: `${SCREENS}/memory-pinned.png`, fullPage: true });

  await page.goto("/memories?pinned=true");
  await expect(page.getByTestId("memory-row")).toHaveCount(1);
  await expect(page.getByTestId("memory-row").getByTestId("pinned-badge")).toBeVisible();

  await page.goto("/");
  const answer = await say(page, "What's a good name for a goldfish?");
  const used = answer.getByTestId("memories-used");
  await used.getByText(/Memories used/).click();
  const pinned = used.locator('li[data-pinned="true"]');
  await expect(pinned).toHaveCount(1);
  await expect(pinned).toContainText("User is allergic to shellfish");
});

test("facts in time: the list shows what held on a day, the memory page its validity", async ({ page }) => {
  await page.goto("/");
  const porto = await createMemory(page, {
    content: "User lives in Porto",
    validFrom: "2019-01-01",
    validTo: "2025-11-01",
  });
  const lisbon = await createMemory(page, { content: "User lives in Lisbon", validFrom: "2025-11-01" });

  const search = await page.request.post("/api/v1/memories/search", { data: { query: "where do I live" } });
  const ids = ((await search.json()) as { results: { memory: { id: string } }[] }).results.map((r) => r.memory.id);
  expect(ids).toContain(lisbon.id);
  expect(ids).not.toContain(porto.id);
  const bad = await page.request.post("/api/v1/memories/search", { data: { query: "live", asOf: "yesterday" } });
  expect(bad.status()).toBe(422);

  await page.goto("/memories");
  await expect(page.getByText("User lives in Porto")).toBeVisible();
  await expect(page.getByTestId("validity-badge").filter({ hasText: "Superseded" })).toHaveCount(1);
  await page.goto("/memories?asOf=2023-06-01");
  await expect(page.getByTestId("as-of-notice")).toBeVisible();
  await expect(page.getByText("User lives in Porto")).toBeVisible();
  await expect(page.getByText("User lives in Lisbon")).toHaveCount(0);

  await page.goto(`/memories/${porto.id}`);
  await expect(page.getByTestId("validity-badge")).toContainText("Superseded");
  await expect(page.getByTestId("history-validity").first()).toContainText("Jan 1, 2019");
  await page.screenshot({ path: `${SCREENS}/memory-validity.png`, fullPage: true });
});
