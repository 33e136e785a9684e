import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { finalMessage } from "../chat/support";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const { POST: chat } = await import("@/app/(chat)/api/chat/route");
const extraction = await import("@/app/api/v1/threads/[id]/extraction/route");

function chatRequest(body: unknown) {
  return chat(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

const say = (thread: string, id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id: thread,
  trigger: "submit-message",
  message: { id, role: "user", parts: [{ type: "text", text }] },
  ...extra,
});

describeEachDatabase("chat and thread routes", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    routeHarness.enqueued.length = 0;
  });

  it("streams an answer, schedules extraction for the thread, and lists its runs", async () => {
    const response = await chatRequest(say("route-thread", "r1", "Remember that I prefer dark mode"));
    expect(response.status).toBe(200);
    const answer = await finalMessage(response);
    await Promise.all(routeHarness.pending);
    expect(answer.parts.some((part) => part.type === "tool-manage_memory")).toBe(true);
    expect(routeHarness.enqueued).toEqual([{ userId: me, threadId: "route-thread", answeredOnly: true }]);

    const runs = await extraction.GET(new Request("http://localhost"), {
      params: Promise.resolve({ id: "route-thread" }),
    });
    expect(runs.status).toBe(200);
    expect(await runs.json()).toEqual({
      threadId: "route-thread",
      extractedThrough: 0,
      runs: [],
      truncated: false,
      pendingProposals: [],
    });
  });

  it("refuses bad input with 4xx JSON and writes nothing", async () => {
    const cases: Array<[unknown, number]> = [
      ["{not json", 400],
      [{ id: "t", trigger: "submit-message" }, 422],
      [say("t", "x", "hi", { extra: true }), 422],
      [say("bad id!", "x", "hi"), 422],
      [say("t", "x", "hi", { model: "openai:not-configured" }), 422],
      [{ ...say("t", "x", ""), message: { id: "x", role: "assistant", parts: [{ type: "text", text: "hi" }] } }, 422],
    ];
    for (const [body, status] of cases) {
      const response = await chatRequest(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await response.json()).error.code).toBeTruthy();
    }
    const runs = await extraction.GET(new Request("http://localhost"), { params: Promise.resolve({ id: "t" }) });
    expect(runs.status).toBe(404);
    expect(routeHarness.enqueued).toEqual([]);
  });

  it("answers 401 without a session, 409 for a message sent twice, 404 for another user's thread", async () => {
    routeHarness.principal = null;
    expect((await chatRequest(say("t401", "a", "hello"))).status).toBe(401);

    routeHarness.principal = principalFor(me);
    await finalMessage(await chatRequest(say("mine", "dup", "hello")));
    expect((await chatRequest(say("mine", "dup", "hello"))).status).toBe(409);

    const stranger = await createUser(use());
    routeHarness.principal = principalFor(stranger);
    const peek = await extraction.GET(new Request("http://localhost"), { params: Promise.resolve({ id: "mine" }) });
    expect(peek.status).toBe(404);
    const retry = await extraction.POST(new Request("http://localhost", { method: "POST" }), {
      params: Promise.resolve({ id: "mine" }),
    });
    expect(retry.status).toBe(404);
    expect(routeHarness.enqueued).toEqual([{ userId: me, threadId: "mine", answeredOnly: true }]);
  });

  it("answers 4xx, not 500, for input Postgres refuses: a NUL character, a message id reused in another chat", async () => {
    const nul = await chatRequest(say("nul-thread", "n1", "hello \u0000 there"));
    expect(nul.status).toBe(422);
    await finalMessage(await chatRequest(say("first-thread", "same-id", "hello")));
    const reused = await chatRequest(say("second-thread", "same-id", "hello again"));
    expect(reused.status).toBe(409);
    expect((await reused.json()).error.code).toBe("conflict");
  });
});
