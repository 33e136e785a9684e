import { z } from "zod";
import { createApiKeyInput } from "@/lib/auth/api-keys";

/** Request and response shapes of /api/v1/keys (docs/api.md); the OpenAPI document is generated from these. */
export const createKeyBody = createApiKeyInput;

export const createdKeyResponse = z.strictObject({
  id: z.uuid(),
  key: z.string().describe("The secret. Shown only in this response; store it now."),
});

export const keySummary = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe("The first characters of the key, to recognise it."),
  scopes: z.array(z.enum(["read", "write"])),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

export const keyListResponse = z.strictObject({ keys: z.array(keySummary) });
export const revokedKeyResponse = z.strictObject({ key: keySummary });
