import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { type OpenAIStub, startOpenAIStub } from "../tests/support/openai-stub";
import { say } from "./chat-support";

const SCREENS = "test-results/screens";

interface Memory {
  id: string;
  text: string;
  status: string;
  version: number;
}

async function liveMemories(api: APIRequestContext, origin = "") {
  const response = await api.get(`${origin}/api/v1/memories`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { memories: Memory[] }).memories.map((memory) => memory.text).sort();
}

async function getMemory(page: Page, id: string) {
  return ((await (await page.request.get(`/api/v1/memories/${id}`)).json()) as { memory: Memory }).memory;
}

async function setReview(api: APIRequestContext, review: "off" | "deletes" | "all", origin = "") {
  expect((await api.patch(`${origin}/api/v1/settings`, { data: { review } })).status()).toBe(200);
}

/** One proposal's card under an answer, found by its text. */
const card = (answer: Locator, text: string) => answer.getByTestId("chat-proposal").filter({ hasText: text });

test("with review set to everything, the chat's saves wait under the answer and are decided there", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await setReview(page.request, "all");

  const answer = await say(page, "I play the cello. I drive a Volvo. I grow tomatoes. I collect stamps.");
  await expect(answer).toContainText("Saved for your review (approve it under this answer)");
  expect(await liveMemories(page.request)).toEqual([]);
  await expect(answer.getByTestId("memory-chip").first()).toHaveText(
    "Awaiting your review (save): User plays the cello",
  );
  const cards = answer.getByTestId("chat-proposal");
  await expect(cards).toHaveCount(4);
  await expect(cards.first()).toContainText("Remember");
  await expect(cards.first()).toContainText("Why:");
  await page.screenshot({ path: `${SCREENS}/review-in-chat.png`, fullPage: true });

  // Edited, then approved: the edited text is what becomes live.
  const cello = card(answer, "User plays the cello");
  await cello.getByRole("button", { name: "Edit and approve" }).click();
  await cello.getByLabel("Content").fill("User plays the cello and the viola");
  await cello.getByRole("button", { name: "Approve edited" }).click();
  await expect(cello).toHaveAttribute("data-status", "approved");
  await expect(cello.getByTestId("chat-proposal-status")).toContainText("approved");
  expect(await liveMemories(page.request)).toEqual(["User plays the cello and the viola"]);

  // Rejected from the keyboard, with a reason.
  const volvo = card(answer, "User drives a Volvo");
  await volvo.getByRole("button", { name: "Reject" }).focus();
  await page.keyboard.press("Enter");
  await expect(volvo.getByLabel("Reason (optional)")).toBeFocused();
  await page.keyboard.type("I sold it");
  await page.keyboard.press("Enter");
  await expect(volvo).toHaveAttribute("data-status", "rejected");
  await expect(volvo).toContainText("Your reason: I sold it");
  await expect(answer.getByTestId("memory-chip").nth(1)).toHaveText("Rejected (save): User drives a Volvo");

  // Decided on the Review page in another tab: the chat's card follows without a reload.
  const reviewPage = await context.newPage();
  await reviewPage.goto("/memories/review");
  const queued = reviewPage.getByTestId("proposal").filter({ hasText: "User grows tomatoes" });
  await expect(async () => {
    if (await queued.isVisible())
      await queued.getByRole("button", { name: "Approve", exact: true }).click({ timeout: 2_000 });
    await expect(queued).toHaveCount(0, { timeout: 2_000 });
  }).toPass();
  await reviewPage.close();
  const tomatoes = card(answer, "User grows tomatoes");
  await expect(tomatoes).toHaveAttribute("data-status", "approved");
  await expect(answer.getByTestId("memory-chip").nth(2)).toHaveText("Approved (save): User grows tomatoes");

  // Decided elsewhere while this page had not heard of it yet: the refusal and what stands now are shown.
  await page.route(/\/api\/v1\/proposals\?/, (route) => route.fulfill({ status: 503, body: "{}" }));
  const { proposals } = (await (await page.request.get("/api/v1/proposals?status=pending")).json()) as {
    proposals: Array<{ id: string; text: string; runId?: string }>;
  };
  const stampsId = proposals.find((proposal) => proposal.text === "User collects stamps" && !proposal.runId)!.id;
  expect((await page.request.post(`/api/v1/proposals/${stampsId}/reject`, { data: {} })).status()).toBe(200);
  const stamps = card(answer, "User collects stamps");
  await expect(stamps).toHaveAttribute("data-status", "pending");
  await stamps.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(stamps.getByTestId("chat-proposal-error")).toHaveText("This proposal was already rejected.");
  await expect(stamps).toHaveAttribute("data-status", "rejected");
  expect(await liveMemories(page.request)).toEqual(["User grows tomatoes", "User plays the cello and the viola"]);
});

test("Undo under an answer puts back what its turn saved, and names what was edited since", async ({ page }) => {
  await page.goto("/");
  const answer = await say(page, "I play the cello. I speak Portuguese.");
  const chips = answer.getByTestId("memory-chip");
  await expect(chips).toHaveText(["Saved: User plays the cello", "Saved: User speaks Portuguese"]);
  const [celloId, portugueseId] = await Promise.all(
    [0, 1].map(async (n) => (await chips.nth(n).getAttribute("href"))!.split("/memories/")[1]!),
  );

  // The person corrects one of them in the console afterwards: that edit must survive the undo.
  const edited = await page.request.patch(`/api/v1/memories/${portugueseId}`, {
    data: { content: "User speaks Portuguese and Spanish", expectedVersion: 1 },
  });
  expect(edited.status()).toBe(200);

  await answer.getByRole("button", { name: /^Undo/ }).click();
  const undone = answer.getByTestId("turn-undone");
  await expect(undone).toContainText("1 change reverted; 1 left as it is");
  await expect(undone.getByTestId("undo-reverted")).toHaveText("Removed: User plays the cello");
  await expect(undone.getByTestId("undo-skipped")).toContainText("User speaks Portuguese");
  await expect(undone.getByTestId("undo-skipped")).toContainText(
    /changed since this turn .*version 2, last changed by you/,
  );
  await expect(answer.getByRole("button", { name: /^Undo/ })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/undo-turn.png`, fullPage: true });

  expect(await getMemory(page, celloId!)).toMatchObject({ status: "deleted" });
  expect(await getMemory(page, portugueseId!)).toMatchObject({
    status: "active",
    text: "User speaks Portuguese and Spanish",
  });

  // Said again, the undone fact is not saved behind the person's back: it waits under the answer, saying why.
  const restated = await say(page, "I play the cello.");
  await expect(restated.getByTestId("memory-chip")).toHaveText("Awaiting your review (save): User plays the cello");
  await expect(restated.getByTestId("memory-chip-reason")).toHaveText(/^You deleted this on .*: remember it again\?$/);
  const held = card(restated, "User plays the cello");
  await expect(held).toContainText("remember it again?");

  // Undoing that turn withdraws what it held, and the card says so.
  await restated.getByRole("button", { name: /^Undo/ }).click();
  await expect(restated.getByTestId("turn-undone")).toContainText("0 changes reverted, 1 proposal withdrawn.");
  await expect(held).toHaveAttribute("data-status", "rejected");
  await expect(held).toContainText("withdrawn: the chat turn was undone");

  // Reloaded, both answers say their changes were undone (the second only withdrew what it held) and neither offers
  // a second Undo.
  await page.reload();
  await expect(page.getByTestId("turn-undone")).toHaveCount(2);
  for (const said of await page.getByTestId("turn-undone").all()) {
    await expect(said).toContainText("This answer's memory changes were undone");
  }
  await expect(page.getByRole("button", { name: /^Undo/ })).toHaveCount(0);
});

/**
 * A provider over HTTP (the OpenAI-compatible stub of tests/support) scripted to save with manage_memory, on a server
 * of its own: the offline model is not the only one whose held saves are decided in the chat.
 */
test.describe("with a provider over HTTP", () => {
  const PORT = 3121;
  const ORIGIN = `http://127.0.0.1:${PORT}`;
  const DATA = ".data/e2e-review-chat";
  let stub: OpenAIStub;
  let server: ChildProcess | undefined;
  let output = "";

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    stub = await startOpenAIStub((body) => {
      // The chat's title is asked for without tools.
      if (!Array.isArray(body.tools)) return { text: "Bees" };
      const messages = body.messages as Array<{ role: string }>;
      if (messages.at(-1)?.role === "tool") return { text: "I'll remember that once you approve it." };
      return {
        toolCalls: [{ name: "manage_memory", arguments: { action: "create", content: "User keeps bees on the roof" } }],
      };
    });
    rmSync(DATA, { recursive: true, force: true });
    server = spawn("node_modules/.bin/next", ["start", "-p", String(PORT), "-H", "127.0.0.1"], {
      env: {
        ...process.env,
        PGLITE_DIR: `${DATA}/pglite`,
        AUTH_SECRET: "e2e-only-secret-not-for-production-0123456789",
        AUTH_GUESTS: "true",
        CHAT_MODEL: "openai-compatible:review-chat",
        CHAT_MODELS: "",
        OPENAI_COMPATIBLE_BASE_URL: stub.baseURL,
        EXTRACTION_MODEL: "offline",
        EXTRACTION_DEBOUNCE_MS: "500",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk) => (output += chunk));
    server.stderr?.on("data", (chunk) => (output += chunk));
    await expect
      .poll(async () => (await fetch(`${ORIGIN}/api/health`).catch(() => null))?.status, {
        timeout: 120_000,
        message: `the server on ${PORT} to start:\n${output}`,
      })
      .toBe(200);
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await stub?.close();
    rmSync(DATA, { recursive: true, force: true });
  });

  test("its held save shows under the answer and is approved there", async ({ page }) => {
    await page.goto(`${ORIGIN}/`);
    await setReview(page.request, "all", ORIGIN);
    const answer = await say(page, "Remember that I keep bees on the roof.");
    await expect(answer).toContainText("I'll remember that once you approve it.");
    await expect(answer.getByTestId("memory-chip")).toHaveText(
      "Awaiting your review (save): User keeps bees on the roof",
    );
    expect(await liveMemories(page.request, ORIGIN)).toEqual([]);

    const bees = card(answer, "User keeps bees on the roof");
    await bees.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(bees).toHaveAttribute("data-status", "approved");
    expect(await liveMemories(page.request, ORIGIN)).toEqual(["User keeps bees on the roof"]);
    // The model was asked once for the tool call and once, with its result, for the answer.
    expect(stub.requests.filter((request) => Array.isArray(request.tools))).toHaveLength(2);
  });
});
