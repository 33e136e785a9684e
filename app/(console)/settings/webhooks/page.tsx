import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentPrincipal } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { listDeliveries, listWebhooks, WEBHOOK_EVENT_TYPES } from "@/lib/memory/webhooks";
import { CreateWebhookForm } from "./create-webhook-form";
import { WebhookList } from "./webhook-list";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

/** Deliveries shown per endpoint: the log's newest page (the API pages further, and the page says so). */
const SHOWN_DELIVERIES = 20;

export default async function WebhooksPage() {
  const principal = await currentPrincipal();
  if (!principal) redirect("/login?callbackUrl=/settings/webhooks");
  const owner = { database: await getDatabase(), principal };
  const webhooks = await listWebhooks(owner);
  const rows = await Promise.all(
    webhooks.map(async (webhook) => {
      const page = await listDeliveries(owner, webhook.id, { limit: SHOWN_DELIVERIES });
      return { webhook, deliveries: page.deliveries, moreDeliveries: page.nextCursor !== null };
    }),
  );
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 p-4 sm:p-6">
      <div className="space-y-1">
        <h1 className="font-semibold text-xl">Webhooks</h1>
        <p className="text-muted-foreground text-sm">
          Tell another app when your memories change or an extraction run finishes. Each request is signed per the
          Standard Webhooks spec (<code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
          <code>webhook-signature</code>) with the endpoint's secret, retried with backoff when it fails, and may arrive
          more than once: deduplicate by <code>webhook-id</code>. Purge events carry ids only.
        </p>
      </div>
      <CreateWebhookForm eventTypes={[...WEBHOOK_EVENT_TYPES]} />
      <WebhookList rows={rows} />
    </div>
  );
}
