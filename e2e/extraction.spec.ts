import { expect, test } from "@playwright/test";

test("with no key, the chat saves each fact of a message, and background extraction, shown them, adds nothing twice", async ({
  page,
}) => {
  const said = "Hi! My name is Ada and I live in Lisbon.";
  await page.goto("/");
  await page.getByLabel("Message").fill(said);
  await page.getByLabel("Message").press("Enter");
  const chips = page.getByTestId("memory-chip");
  await expect(chips).toHaveText(["Saved: User's name is Ada", "Saved: User lives in Lisbon"]);
  const memoryId = (await chips.nth(1).getAttribute("href"))!.split("/memories/")[1]!;

  const status = page.getByTestId("extraction-status");
  await expect(status).toContainText("Memories up to date", { timeout: 30_000 });
  await page.screenshot({ path: "test-results/screens/chat-extraction.png" });

  const { memory } = await (await page.request.get(`/api/v1/memories/${memoryId}`)).json();
  expect(memory).toMatchObject({ text: "User lives in Lisbon", source: { type: "chat", quote: said } });

  const threadId = page.url().split("/chat/")[1]!;
  const { runs } = await (await page.request.get(`/api/v1/threads/${threadId}/extraction`)).json();
  expect(runs).toHaveLength(1);
  // Both facts were saved by the chat and shown to the manager, which proposed neither again.
  expect(runs[0]).toMatchObject({ status: "succeeded", messages: { from: 0, through: 2 }, opsApplied: [] });
});

test("the usage page counts the chat turn and the extraction run it caused, per day", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Message").fill("I play the cello on Sundays.");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByTestId("extraction-status")).toContainText("Memories up to date", { timeout: 30_000 });

  await page.goto("/memories/usage");
  const today = page.getByTestId("usage-day");
  await expect(today).toHaveCount(1);
  // Total, chat and extraction columns: the offline model costs nothing but reports its tokens.
  const cells = today.locator("td");
  await expect(cells.nth(2)).toContainText(/\d+ in \/ \d+ out · \d+ calls?/);
  await expect(cells.nth(3)).toContainText(/\d+ in \/ \d+ out · 1 call/);
  await expect(cells.nth(1)).toContainText("$0");
});
