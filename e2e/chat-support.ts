import { expect, type Page } from "@playwright/test";

/**
 * Sends a message from the composer and returns the answer it gets, once it is complete: the composer ignores a
 * message sent while an answer is still streaming (its Send button is a Stop button until then).
 */
export async function say(page: Page, text: string) {
  const before = await page.locator('[data-role="assistant"]').count();
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
  const answer = page.locator('[data-role="assistant"]').nth(before);
  await expect(answer).not.toBeEmpty();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  return answer;
}
