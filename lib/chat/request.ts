import { z } from "zod";

const MAX_MESSAGE_CHARS = 20_000;

const userMessageSchema = z.strictObject({
  id: z.string().min(1).max(100),
  role: z.literal("user"),
  parts: z
    .array(z.strictObject({ type: z.literal("text"), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }))
    .min(1)
    .max(20),
  metadata: z.unknown().optional(),
});

/** What the chat client sends: the thread, and either a new user message or a request to answer again. */
export const chatRequestSchema = z.discriminatedUnion("trigger", [
  z.strictObject({
    id: z.string().regex(/^[\w-]{1,100}$/, "must be a short id"),
    trigger: z.literal("submit-message"),
    message: userMessageSchema,
    model: z.string().min(1).max(200).optional(),
  }),
  z.strictObject({
    id: z.string().regex(/^[\w-]{1,100}$/, "must be a short id"),
    trigger: z.literal("regenerate-message"),
    messageId: z.string().min(1).max(100).optional(),
    model: z.string().min(1).max(200).optional(),
  }),
]);
export type ChatRequest = z.infer<typeof chatRequestSchema>;
