import { expect, type Page } from "@playwright/test";

/**
 * Sends a message from the composer and returns the answer it gets, once it is complete: the composer ignores a
 * message sent while an answer is still streaming (its Send button is a Stop button until then). The first answer of
 * a new chat refreshes the page as /chat/<id>, which mounts the chat anew (app/(chat)/chat/[id]/page.tsx keys it by
 * the thread): what is typed or clicked before then lands in the chat being replaced. The same refresh lists the
 * thread in the sidebar, so the answer is returned once the sidebar links to it. `timeout` bounds each wait, for a
 * server that may be slower than the expectations' default (`next dev` compiles each route on its first request).
 */
export async function say(page: Page, text: string, { timeout }: { timeout?: number } = {}) {
  const before = await page.locator('[data-role="assistant"]').count();
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
  const answer = page.locator('[data-role="assistant"]').nth(before);
  await expect(answer).not.toBeEmpty({ timeout });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout });
  const threadId = new URL(page.url()).pathname.split("/chat/")[1];
  if (threadId) {
    await expect(page.getByRole("navigation", { name: "Chats" }).locator(`a[href="/chat/${threadId}"]`)).toHaveCount(
      1,
      {
        timeout,
      },
    );
  }
  return answer;
}
