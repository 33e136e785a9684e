import { z } from "zod";

/** What a person types (or sends) to confirm that their account is to go. */
export const DELETE_ACCOUNT_CONFIRMATION = "delete my account";

export const deleteAccountInput = z.strictObject({
  confirm: z.literal(DELETE_ACCOUNT_CONFIRMATION, {
    error: `Send { "confirm": "${DELETE_ACCOUNT_CONFIRMATION}" } to delete the account and everything in it.`,
  }),
});
