import { expect, test } from "@playwright/test";

test("offline chat saves a memory with its source, recalls it in a new chat, and keeps threads across reloads", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await page.getByLabel("Message").fill("Remember that I prefer dark mode");
  await page.getByLabel("Message").press("Enter");

  const chip = page.getByTestId("memory-chip");
  await expect(chip).toHaveText("Saved: User prefers dark mode");
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  const threadId = page.url().split("/chat/")[1]!;
  const memoryId = (await chip.getAttribute("href"))!.split("/memories/")[1]!;

  const saved = await page.request.get(`/api/v1/memories/${memoryId}`);
  expect(saved.ok()).toBe(true);
  const { memory } = (await saved.json()) as {
    memory: { text: string; source: { type: string; threadId: string; messageId: string; quote: string } };
  };
  expect(memory.text).toBe("User prefers dark mode");
  expect(memory.source).toMatchObject({ type: "chat", threadId, quote: "Remember that I prefer dark mode" });
  expect(memory.source.messageId).toBeTruthy();
  await page.screenshot({ path: "test-results/screens/chat-saved.png" });

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel("Message").fill("What are my display preferences?");
  await page.getByLabel("Message").press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("dark mode");
  const used = answer.getByTestId("memories-used");
  await used.getByText(/Memories used/).click();
  await expect(used.getByRole("link", { name: "User prefers dark mode" })).toHaveAttribute(
    "href",
    `/memories/${memoryId}`,
  );
  await page.screenshot({ path: "test-results/screens/chat-recall.png" });

  await page.goto(`/chat/${threadId}`);
  await expect(page.locator('[data-role="user"]')).toHaveText("Remember that I prefer dark mode");
  await expect(page.getByTestId("memory-chip")).toHaveText("Saved: User prefers dark mode");
  await expect(page.getByRole("navigation", { name: "Chats" })).toContainText("Remember that I prefer dark");
});
