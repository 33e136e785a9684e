import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { signInSchema } from "@/lib/auth/credentials";
import { namespaceRoot, roleFor } from "@/lib/auth/principal";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { createGuestUser, type UserRow, userForOAuth, verifyCredentials } from "@/lib/auth/users";
import { getDatabase } from "@/lib/db";
import { authConfig } from "./authjs-config";

export const guestsEnabled = () => process.env.AUTH_GUESTS !== "false";
export const githubEnabled = () => Boolean(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET);

function toAuthUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, isGuest: user.isGuest, role: roleFor(user.email) };
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
    ...(githubEnabled() ? [GitHub] : []),
  ],
  callbacks: {
    ...authConfig.callbacks,
    async jwt({ token, user, account, profile }) {
      if (account?.provider === "github") {
        const { db } = (await getDatabase()).unbound;
        const linked = await userForOAuth(db, "github", account.providerAccountId, {
          email: profile?.email ?? user?.email,
          name: profile?.name ?? user?.name,
        });
        return withUser(token, toAuthUser(linked));
      }
      if (user?.id) return withUser(token, { ...user, id: user.id });
      return token;
    },
  },
}));

function withUser<T extends object>(
  token: T,
  user: { id: string; email?: string | null; name?: string | null; isGuest?: boolean; role?: "user" | "admin" },
) {
  return {
    ...token,
    uid: user.id,
    email: user.email ?? null,
    name: user.name ?? null,
    isGuest: user.isGuest ?? false,
    role: user.role ?? roleFor(user.email),
    root: namespaceRoot(user.id),
  };
}
