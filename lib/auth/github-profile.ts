import GitHub from "next-auth/providers/github";
import { z } from "zod";
import type { Config } from "@/lib/config";

const API = "https://api.github.com";

const emailListSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

/** A GitHub profile with the one email we keep and whether GitHub verified it (`email_verified`, as OIDC names it). */
export type VerifiedGithubProfile = Record<string, unknown> & { email: string | null; email_verified: boolean };

/**
 * The account's primary email and GitHub's word on whether it is verified. The provider's stock profile takes the
 * public email, or else any listed one, and says nothing about verification; an admin role may rest on this flag.
 * Without the email list (the user refused the user:email scope) the public email is kept, unverified.
 */
export function withVerifiedEmail(profile: Record<string, unknown>, emails: unknown): VerifiedGithubProfile {
  const listed = emailListSchema.safeParse(emails);
  const primary = listed.success ? listed.data.find((entry) => entry.primary) : undefined;
  if (primary) return { ...profile, email: primary.email, email_verified: primary.verified };
  const publicEmail = typeof profile.email === "string" ? profile.email : null;
  return { ...profile, email: publicEmail, email_verified: false };
}

/** The GitHub provider, reading the email list on every sign-in so the profile says whether its email is verified. */
export function githubProvider(settings: Config) {
  return GitHub({
    clientId: settings.AUTH_GITHUB_ID,
    clientSecret: settings.AUTH_GITHUB_SECRET,
    userinfo: {
      url: `${API}/user`,
      async request({ tokens }: { tokens: { access_token?: string } }) {
        const headers = { Authorization: `Bearer ${tokens.access_token}`, "User-Agent": "memory-ledger" };
        const [profile, emails] = await Promise.all([
          fetch(`${API}/user`, { headers }).then((response) => response.json() as Promise<Record<string, unknown>>),
          fetch(`${API}/user/emails`, { headers }).then((response) => (response.ok ? response.json() : null)),
        ]);
        return withVerifiedEmail(profile, emails);
      },
    },
  });
}
