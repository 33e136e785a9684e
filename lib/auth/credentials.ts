import { z } from "zod";

export const PASSWORD_MIN = 8;
/**
 * In UTF-8 bytes, not characters: bcrypt ignores every byte past the 72nd, so a longer password would be stored as
 * its first 72 bytes and any text sharing them would sign in. Longer ones are refused rather than cut.
 */
export const PASSWORD_MAX_BYTES = 72;
const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_BYTES} bytes (letters with accents take 2, emoji 4).`;

// TextEncoder rather than Buffer: the sign-in form imports this module into the browser bundle.
const utf8 = new TextEncoder();
const withinBcrypt = (value: string) => utf8.encode(value).byteLength <= PASSWORD_MAX_BYTES;

/** Control characters have no place in a name or password, and Postgres refuses NUL outright. */
const UNSTORABLE = /\p{Cc}/u;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid email address." }).max(254));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .refine(withinBcrypt, PASSWORD_TOO_LONG)
  .refine((value) => !UNSTORABLE.test(value), "Password contains characters that cannot be used.");

/** A password no account can have never reaches bcrypt, which would compare only its first 72 bytes. */
export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).refine(withinBcrypt, PASSWORD_TOO_LONG),
});

export const registerSchema = z.object({
  name: z
    .string()
    .trim()
    .max(80)
    .refine((value) => !UNSTORABLE.test(value), "Name contains characters that cannot be used.")
    .optional(),
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;
