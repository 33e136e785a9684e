import { OFFLINE_MODEL_ID } from "./registry";

/** The `provider:model` string the chat uses; `offline` when nothing is configured. */
export function chatModelId(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHAT_MODEL?.trim() || OFFLINE_MODEL_ID;
}
