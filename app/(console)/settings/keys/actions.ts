"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { API_KEY_SCOPES, createApiKey, createApiKeyInput, revokeApiKey } from "@/lib/auth/api-keys";
import { type ActionResult, AppError, parseInput } from "@/lib/errors";

/** Null before the form is first sent. */
export type CreateKeyState = ActionResult<{ name: string; key: string }> | null;

/** The form sends an optional date (`YYYY-MM-DD`); the key expires at the end of that day, UTC. */
const createKeyForm = z
  .instanceof(FormData)
  .transform((form) => ({
    name: form.get("name") ?? "",
    scopes: form.getAll("scopes"),
    expiresOn: form.get("expiresOn") ?? "",
  }))
  .pipe(
    z.strictObject({
      name: z.string(),
      scopes: z.array(z.enum(API_KEY_SCOPES)),
      expiresOn: z.union([z.literal(""), z.iso.date()]).transform((day) => (day ? `${day}T23:59:59.999Z` : undefined)),
    }),
  );

const createFromForm = sessionAction(createKeyForm, async (fields, user) => {
  const input = parseInput(createApiKeyInput, {
    name: fields.name,
    scopes: fields.scopes,
    expiresAt: fields.expiresOn,
  });
  const { key } = await createApiKey(user, input);
  revalidatePath("/settings/keys");
  return { name: input.name, key };
});

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  return createFromForm(form);
}

export const revokeKeyAction = sessionAction(z.uuid(), async (id, user) => {
  const revoked = await revokeApiKey(user, id);
  if (!revoked) throw new AppError("not_found", "No such API key.");
  revalidatePath("/settings/keys");
  return {};
});
