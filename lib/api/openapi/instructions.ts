// The REST operations of procedural memory: feedback on answers and the instructions.

import {
  createFeedbackBody,
  feedbackResponse,
  instructionsResponse,
  putInstructionsBody,
} from "../procedural-requests";
import type { Operation } from "./operation";

export const instructionOperations: Operation[] = [
  {
    method: "post",
    path: "/api/v1/feedback",
    operationId: "createFeedback",
    tag: "Instructions",
    summary: "Rate an answer",
    description:
      "Thumbs up or down on one of the caller's assistant answers, with an optional comment (at most 2,000 characters). Stored with the answer's thread and the instructions version it ran with; a queued optimizer pass reads it and proposes new instructions. Another user's message is a 404; a message that is not an assistant's answer is a 422.",
    body: createFeedbackBody,
    success: { status: 201, description: "The feedback.", schema: feedbackResponse },
    errors: [400, 401, 403, 404, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/instructions",
    operationId: "getInstructions",
    tag: "Instructions",
    summary: "Get instructions",
    description: "The user's standing instructions to the chat model (null until first written) and every version.",
    success: { status: 200, description: "The instructions and their history.", schema: instructionsResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "put",
    path: "/api/v1/instructions",
    operationId: "putInstructions",
    tag: "Instructions",
    summary: "Edit instructions",
    description:
      "Session cookie only. A new version by the user; with `expectedVersion` (0 before the first), a 409 when another version came first.",
    body: putInstructionsBody,
    success: { status: 200, description: "The instructions now and their history.", schema: instructionsResponse },
    errors: [400, 401, 403, 409, 413, 415, 422, 429],
    security: ["cookie"],
  },
];
