import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { listApiKeys } from "@/lib/auth/api-keys";
import { currentPrincipal } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { CreateKeyForm } from "./create-key-form";
import { KeyList } from "./key-list";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const principal = await currentPrincipal();
  if (!principal) redirect("/login?callbackUrl=/settings/keys");
  const keys = await listApiKeys({ database: await getDatabase(), principal });
  const rows = keys.map((key) => ({
    ...key,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }));
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 p-4 sm:p-6">
      <div className="space-y-1">
        <h1 className="font-semibold text-xl">API keys</h1>
        <p className="text-muted-foreground text-sm">
          Let other apps and agents use your memory through the REST API, the LangGraph store client or MCP. See the{" "}
          <Link href="/docs/api" className="text-primary underline-offset-4 hover:underline">
            API reference
          </Link>
          .
        </p>
      </div>
      <CreateKeyForm />
      <KeyList keys={rows} />
    </div>
  );
}
