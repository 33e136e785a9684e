import { expect, test } from "@playwright/test";

test("with no key, background extraction saves what the chat did not, with its quote and run", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Message").fill("My name is Ada. I live in Lisbon.");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByTestId("memory-chip")).toHaveText("Saved: User's name is Ada");

  const status = page.getByTestId("extraction-status");
  await expect(status).toContainText("1 saved", { timeout: 30_000 });
  const link = status.getByRole("link", { name: "saved: User lives in Lisbon" });
  const memoryId = (await link.getAttribute("href"))!.split("/memories/")[1]!;
  await page.screenshot({ path: "test-results/screens/chat-extraction.png" });

  const { memory } = await (await page.request.get(`/api/v1/memories/${memoryId}`)).json();
  expect(memory).toMatchObject({
    text: "User lives in Lisbon",
    actor: { type: "extractor", id: "offline" },
    source: { type: "extraction", quote: "I live in Lisbon." },
  });
  expect(memory.source.runId).toBeTruthy();

  const threadId = page.url().split("/chat/")[1]!;
  const { runs } = await (await page.request.get(`/api/v1/threads/${threadId}/extraction`)).json();
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ status: "succeeded", messages: { from: 0, through: 2 } });
  // The name was already saved by the chat and shown to the manager, which proposed only the new fact.
  expect(runs[0].opsApplied).toEqual([
    expect.objectContaining({ op: "insert", memoryId, text: "User lives in Lisbon" }),
  ]);
});
