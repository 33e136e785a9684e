"use server";

import { z } from "zod";
import { deleteAccountInput } from "@/lib/account/confirmation";
import { deleteAccount } from "@/lib/account/delete-account";
import { sessionAction } from "@/lib/api/session-action";
import { signOut } from "@/lib/auth/authjs";
import type { ActionResult } from "@/lib/errors";

const confirmation = z
  .string()
  .transform((confirm) => ({ confirm }))
  .pipe(deleteAccountInput);

const deleteOwnAccount = sessionAction(confirmation, async (_confirmed, { principal, database }) => {
  await deleteAccount(database, principal.userId);
  return {};
});

/**
 * Deletes the signed-in person's account and everything in it (as DELETE /api/v1/account does), then ends this
 * browser's session; the page takes them to sign-in.
 */
export async function deleteAccountAction(confirm: string): Promise<ActionResult> {
  const result = await deleteOwnAccount(confirm);
  if (result.ok) await signOut({ redirect: false });
  return result;
}
