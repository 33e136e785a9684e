"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { currentPrincipal } from "@/app/(auth)/session";
import { API_KEY_SCOPES, createApiKey, createApiKeyInput, revokeApiKey } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";

export type CreateKeyState =
  | { status: "idle" }
  | { status: "error"; error: string }
  | { status: "created"; name: string; key: string };

/** The form sends an optional date (`YYYY-MM-DD`); the key expires at the end of that day, UTC. */
const createKeyForm = z.strictObject({
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresOn: z.union([z.literal(""), z.iso.date()]).transform((day) => (day ? `${day}T23:59:59.999Z` : undefined)),
});

async function requireUserId(): Promise<string> {
  const principal = await currentPrincipal();
  if (!principal) throw new Error("Not signed in.");
  return principal.userId;
}

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const userId = await requireUserId();
  const fields = createKeyForm.safeParse({
    name: form.get("name") ?? "",
    scopes: form.getAll("scopes"),
    expiresOn: form.get("expiresOn") ?? "",
  });
  if (!fields.success) return { status: "error", error: "Check the form: an unknown scope or an invalid date." };
  const input = createApiKeyInput.safeParse({
    name: fields.data.name,
    scopes: fields.data.scopes,
    expiresAt: fields.data.expiresOn,
  });
  if (!input.success) return { status: "error", error: input.error.issues[0]?.message ?? "Invalid key." };
  const { db } = await getDatabase();
  const { key } = await createApiKey(db, userId, input.data);
  revalidatePath("/settings/keys");
  return { status: "created", name: input.data.name, key };
}

export async function revokeKeyAction(id: string): Promise<{ ok: boolean }> {
  const userId = await requireUserId();
  const parsed = z.uuid().safeParse(id);
  if (!parsed.success) return { ok: false };
  const { db } = await getDatabase();
  const revoked = await revokeApiKey(db, userId, parsed.data);
  revalidatePath("/settings/keys");
  return { ok: revoked !== null };
}
