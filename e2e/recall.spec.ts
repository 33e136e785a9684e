import { expect, type Page, test } from "@playwright/test";
import { say } from "./chat-support";

/**
 * The background job gives new memories their vectors; until then search finds them by their words only, and the
 * memories console says how many of the user's memories still wait.
 */
async function vectorsReady(page: Page) {
  const memories = await page.context().newPage();
  await expect
    .poll(
      async () => {
        await memories.goto("/memories");
        return memories.getByTestId("embedding-progress").count();
      },
      { timeout: 60_000 },
    )
    .toBe(0);
  await memories.close();
}

test("a new user with no keys: a fact said in one chat is recalled by meaning in another, and 'what do you know about me?' lists what is known", async ({
  page,
}) => {
  await page.goto("/");
  await say(page, "I work as a nurse in Toronto.");
  await expect(page.getByTestId("memory-chip").first()).toContainText("nurse in Toronto");
  await say(page, "I'm allergic to peanuts, so never suggest recipes with them.");
  await vectorsReady(page);

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(0);
  // "job" is in none of the memories: the local encoder's vectors find the nurse memory by meaning.
  const job = await say(page, "what's my job?");
  await expect(job).toContainText("nurse in Toronto");
  const used = job.getByTestId("memories-used");
  await used.getByText(/Memories used/).click();
  await expect(used.getByRole("link", { name: /nurse in Toronto/ })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/recall-by-meaning.png" });

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(0);
  const known = await say(page, "What do you know about me?");
  await expect(known).toContainText("nurse in Toronto");
  await expect(known).toContainText("allergic to peanuts");
  await page.screenshot({ path: "test-results/screens/what-do-you-know.png" });
});
