import { generateText } from "ai";
import { afterAll, expect, it } from "vitest";
import { chatLanguageModel } from "@/lib/ai/models";
import { restoreEnv, setEnv } from "../support/env";
import { startOpenAIStub } from "../support/openai-stub";

const first = await startOpenAIStub([{ text: "from the first" }]);
const second = await startOpenAIStub([{ text: "from the second" }]);
afterAll(async () => {
  await first.close();
  await second.close();
});

it("builds the chat model from the configuration as it is now, not as it was when first asked", async () => {
  setEnv({ OPENAI_COMPATIBLE_BASE_URL: first.baseURL });
  const before = await generateText({ model: chatLanguageModel("openai-compatible:stub"), prompt: "hi" });
  restoreEnv();
  setEnv({ OPENAI_COMPATIBLE_BASE_URL: second.baseURL });
  const after = await generateText({ model: chatLanguageModel("openai-compatible:stub"), prompt: "hi" });

  expect([before.text, after.text]).toEqual(["from the first", "from the second"]);
  expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
});
