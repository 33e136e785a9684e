// The REST operations on the caller's account: usage, identity, API keys, sessions, and deleting the account.

import { deleteAccountInput } from "@/lib/account/confirmation";
import { deletedAccountResponse } from "@/lib/account/delete-account";
import { createdKeyResponse, createKeyBody, keyListResponse, revokedKeyResponse } from "../key-requests";
import { meResponse, usageResponse } from "../response-schemas";
import { usageQuery } from "../usage-requests";
import type { Operation } from "./operation";

export const accountOperations: Operation[] = [
  {
    method: "get",
    path: "/api/v1/usage",
    operationId: "usage",
    tag: "Account",
    summary: "Model usage and cost per day",
    description:
      "Tokens and cost in US dollars per UTC day, in all and by kind (chat, extraction), from the caller's cost ledger, with today's spend against the daily budget. A range covers at most 366 days; a bad date or a reversed range is a 422.",
    query: usageQuery,
    success: { status: 200, description: "Usage per day and the budget.", schema: usageResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "get",
    path: "/api/v1/me",
    operationId: "me",
    tag: "Account",
    summary: "Who the cookie or key acts as",
    success: { status: 200, description: "The principal.", schema: meResponse },
    errors: [401, 429],
  },
  {
    method: "post",
    path: "/api/v1/keys",
    operationId: "createApiKey",
    tag: "API keys",
    summary: "Issue an API key",
    description: "Session cookie only. The key is in this response once; only its hash is stored.",
    body: createKeyBody,
    success: { status: 201, description: "The key.", schema: createdKeyResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "get",
    path: "/api/v1/keys",
    operationId: "listApiKeys",
    tag: "API keys",
    summary: "List API keys",
    description: "Session cookie only. Without secrets; revoked keys included.",
    success: { status: 200, description: "The caller's keys.", schema: keyListResponse },
    errors: [401, 403, 429],
    security: ["cookie"],
  },
  {
    method: "delete",
    path: "/api/v1/keys/{id}",
    operationId: "revokeApiKey",
    tag: "API keys",
    summary: "Revoke an API key",
    description: "Session cookie only. Another user's key id is a 404.",
    success: { status: 200, description: "The revoked key.", schema: revokedKeyResponse },
    errors: [401, 403, 404, 429],
    security: ["cookie"],
  },
  {
    method: "post",
    path: "/api/v1/sessions/revoke",
    operationId: "revokeSessions",
    tag: "Account",
    summary: "Sign out everywhere",
    description:
      "Session cookie only. Every session of the user, this one included, answers 401 from then on; API keys are not affected.",
    success: { status: 204, description: "Every session is signed out." },
    errors: [401, 403, 429],
    security: ["cookie"],
  },
  {
    method: "delete",
    path: "/api/v1/account",
    operationId: "deleteAccount",
    tag: "Account",
    summary: "Delete my account",
    description:
      'Session cookie only. Deletes the user and everything that is theirs, in every table; their sessions and keys answer 401 afterwards. The body must be { "confirm": "delete my account" } (anything else is a 422 and deletes nothing).',
    body: deleteAccountInput,
    success: { status: 200, description: "Rows removed per table.", schema: deletedAccountResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    security: ["cookie"],
  },
];
