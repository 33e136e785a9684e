import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { signInSchema } from "@/lib/auth/credentials";
import { githubProvider } from "@/lib/auth/github-profile";
import { namespaceRoot } from "@/lib/auth/principal";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { checkSession } from "@/lib/auth/session-validity";
import { createGuestUser, type UserRow, userForOAuth, verifyCredentials } from "@/lib/auth/users";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { logFailure } from "@/lib/log";
import { authConfig } from "./authjs-config";

export const guestsEnabled = () => config().AUTH_GUESTS;
export const githubEnabled = () => config().AUTH_GITHUB_ID !== undefined;

function toAuthUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, sessionGeneration: user.sessionGeneration };
}

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(() => ({
  ...authConfig,
  secret: resolveAuthSecret(),
  providers: [
    Credentials({
      id: "credentials",
      credentials: { email: {}, password: {} },
      async authorize(raw) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { db } = (await getDatabase()).unbound;
        const user = await verifyCredentials(db, parsed.data.email, parsed.data.password);
        return user ? toAuthUser(user) : null;
      },
    }),
    Credentials({
      id: "guest",
      credentials: {},
      async authorize() {
        if (!guestsEnabled()) return null;
        const { db } = (await getDatabase()).unbound;
        return toAuthUser(await createGuestUser(db));
      },
    }),
    ...(githubEnabled() ? [githubProvider(config())] : []),
  ],
  callbacks: {
    ...authConfig.callbacks,
    async jwt({ token, user, account, profile }) {
      if (account?.type === "oauth" || account?.type === "oidc") {
        const { db } = (await getDatabase()).unbound;
        const linked = await userForOAuth(db, account.provider, account.providerAccountId, {
          email: profile?.email ?? user?.email,
          name: profile?.name ?? user?.name,
          // OIDC's claim; the GitHub provider sets it from GitHub's email list (lib/auth/github-profile.ts).
          emailVerified: profile?.email_verified === true,
        });
        return signedInToken(token, toAuthUser(linked));
      }
      if (user?.id) return signedInToken(token, { id: user.id, sessionGeneration: user.sessionGeneration ?? 0 });
      if (!token.uid) return null;
      // Every later read of the cookie: a null here makes Auth.js drop the cookie and report no session.
      let current: Awaited<ReturnType<typeof checkSession>>;
      try {
        const { db } = (await getDatabase()).unbound;
        current = await checkSession(db, { uid: token.uid, generation: token.generation ?? 0 });
      } catch (error) {
        // A throw here would make Auth.js drop the cookie too, and a guest, who has no password, would lose their
        // account to a database hiccup. The token stays, marked unchecked, and no principal is made from it.
        logFailure("session check failed", error);
        return { ...token, unchecked: true };
      }
      return current ? { ...token, ...current, unchecked: false } : null;
    },
  },
}));

/** What the session cookie carries: the user's id and the session generation at sign-in; the rest is re-read. */
function signedInToken<T extends object>(token: T, user: { id: string; sessionGeneration: number }) {
  return { ...token, uid: user.id, generation: user.sessionGeneration, root: namespaceRoot(user.id) };
}
