"use server";

import { deleteAccountInput } from "@/lib/account/confirmation";
import { deleteAccount } from "@/lib/account/delete-account";
import { actionPrincipal } from "@/lib/api/caller";
import { signOut } from "@/lib/auth/authjs";
import { getDatabase } from "@/lib/db";
import { type ActionResult, parseInput, settleAction } from "@/lib/errors";

/**
 * Deletes the signed-in person's account and everything in it (as DELETE /api/v1/account does), then ends this
 * browser's session; the page takes them to sign-in.
 */
export async function deleteAccountAction(confirm: string): Promise<ActionResult> {
  const result = await settleAction(async () => {
    const principal = await actionPrincipal();
    parseInput(deleteAccountInput, { confirm });
    await deleteAccount(await getDatabase(), principal.userId);
    return {};
  });
  if (result.ok) await signOut({ redirect: false });
  return result;
}
