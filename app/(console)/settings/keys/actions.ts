"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal } from "@/lib/api/caller";
import { API_KEY_SCOPES, createApiKey, createApiKeyInput, revokeApiKey } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";
import { type ActionResult, AppError, parseInput, settleAction } from "@/lib/errors";

/** Null before the form is first sent. */
export type CreateKeyState = ActionResult<{ name: string; key: string }> | null;

/** The form sends an optional date (`YYYY-MM-DD`); the key expires at the end of that day, UTC. */
const createKeyForm = z.strictObject({
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresOn: z.union([z.literal(""), z.iso.date()]).transform((day) => (day ? `${day}T23:59:59.999Z` : undefined)),
});

async function requireUser() {
  const principal = await actionPrincipal();
  return { database: await getDatabase(), principal };
}

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  return settleAction(async () => {
    const user = await requireUser();
    const fields = parseInput(createKeyForm, {
      name: form.get("name") ?? "",
      scopes: form.getAll("scopes"),
      expiresOn: form.get("expiresOn") ?? "",
    });
    const input = parseInput(createApiKeyInput, {
      name: fields.name,
      scopes: fields.scopes,
      expiresAt: fields.expiresOn,
    });
    const { key } = await createApiKey(user, input);
    revalidatePath("/settings/keys");
    return { name: input.name, key };
  });
}

export async function revokeKeyAction(id: string): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    const revoked = await revokeApiKey(user, parseInput(z.uuid(), id));
    if (!revoked) throw new AppError("not_found", "No such API key.");
    revalidatePath("/settings/keys");
    return {};
  });
}
