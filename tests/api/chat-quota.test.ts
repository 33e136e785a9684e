import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { recordUsage } from "@/lib/memory/usage";
import { finalMessage } from "../chat/support";
import { bindingFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";

const { POST: chat } = await import("@/app/(chat)/api/chat/route");

const say = (thread: string, id: string, text: string) =>
  chat(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: thread,
        trigger: "submit-message",
        model: "offline",
        message: { id, role: "user", parts: [{ type: "text", text }] },
      }),
    }),
    { params: Promise.resolve({}) },
  );

describeEachDatabase("daily chat tokens", (use) => {
  let me: string;
  const storedMessages = async () =>
    (await use().unbound.rows<{ n: number }>(sql`select count(*)::int as n from messages where user_id = ${me}`))[0]?.n;

  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    setEnv({ CHAT_DAILY_TOKENS: "", GUEST_CHAT_DAILY_TOKENS: "" });
  });

  it("a turn is refused with 403 quota_exceeded once today's chat tokens reach CHAT_DAILY_TOKENS, storing nothing", async () => {
    setEnv({ CHAT_DAILY_TOKENS: "1" });
    const first = await say("quota-thread", "q1", "Remember that I prefer dark mode");
    expect(first.status).toBe(200);
    await finalMessage(first);
    await Promise.all(routeHarness.pending);
    const stored = await storedMessages();
    const refused = await say("quota-thread", "q2", "And that I like tea");
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toEqual({
      code: "quota_exceeded",
      message: expect.stringMatching(/^Daily chat quota reached: this account's chat may use 1 model token a day/),
    });
    expect(await storedMessages()).toBe(stored);
  });

  it("counts only today's chat tokens, and guests get GUEST_CHAT_DAILY_TOKENS by default", async () => {
    routeHarness.principal = { ...principalFor(me), isGuest: true };
    const binding = { ...bindingFor(use(), me), clock: () => new Date() };
    const spend = (kind: "chat" | "extraction", tokens: number, at = new Date()) =>
      recordUsage(
        { ...binding, clock: () => at },
        { kind, model: "offline", usage: { inputTokens: tokens, outputTokens: 0 }, costUsd: null },
      );
    await spend("chat", 150_000, new Date(Date.now() - 86_400_000));
    await spend("extraction", 150_000);
    await spend("chat", 199_000);
    const under = await say("guest-thread", "g1", "Hello");
    expect(under.status).toBe(200);
    await finalMessage(under);
    await Promise.all(routeHarness.pending);
    await spend("chat", 1_000);
    const refused = await say("guest-thread", "g2", "Hello again");
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toMatch(/may use 200,000 model tokens a day/);
  });
});
