import { z } from "zod";

const quote = z.string().min(1).max(1_000).describe("The exact words of the cited message that support this op.");
const messageId = z.string().min(1).max(200).describe("The id of the message the quote comes from.");

export const insertOpSchema = z.strictObject({
  op: z.literal("insert"),
  kind: z.string().min(1).max(64).describe("One of the allowed kinds."),
  content: z.unknown().describe("The memory's content, shaped for its kind."),
  messageId,
  quote,
});

export const updateOpSchema = z.strictObject({
  op: z.literal("update"),
  id: z.string().min(1).max(100).describe("The id of an existing memory shown to you."),
  expectedVersion: z.number().int().positive().describe("The version of that memory shown to you."),
  content: z.unknown().describe("The full new content, shaped for the memory's kind."),
  messageId,
  quote,
  reason: z.string().min(1).max(500),
});

export const deleteOpSchema = z.strictObject({
  op: z.literal("delete"),
  id: z.string().min(1).max(100).describe("The id of an existing memory shown to you."),
  reason: z.string().min(1).max(500),
});

export const extractionOpSchema = z.discriminatedUnion("op", [insertOpSchema, updateOpSchema, deleteOpSchema]);
export type ExtractionOp = z.infer<typeof extractionOpSchema>;

/** What the manager model must answer: a list of ops, possibly empty. */
export const extractionOutputSchema = z.strictObject({ ops: z.array(extractionOpSchema).max(50) });
export type ExtractionOutput = z.infer<typeof extractionOutputSchema>;

export interface RejectedOp {
  op: unknown;
  reason: string;
}

export interface AppliedOp {
  op: ExtractionOp["op"];
  memoryId: string;
  version: number;
  text: string;
}
