import { z } from "zod";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72; // bcrypt ignores bytes past 72

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
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`)
  .refine((value) => !UNSTORABLE.test(value), "Password contains characters that cannot be used.");

export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1).max(PASSWORD_MAX) });

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
