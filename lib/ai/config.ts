import { OFFLINE_MODEL_ID } from "./registry";

/** The `provider:model` string the chat uses; `offline` when nothing is configured. */
export function chatModelId(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.CHAT_MODEL?.trim() || OFFLINE_MODEL_ID;
}
