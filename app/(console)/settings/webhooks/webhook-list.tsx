"use client";

import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/errors";
import type { WebhookDelivery, WebhookEndpoint } from "@/lib/memory/webhooks";
import { deleteWebhookAction, redeliverAction, setWebhookEnabledAction } from "./actions";

export interface WebhookRow {
  webhook: WebhookEndpoint;
  /** The newest deliveries; `moreDeliveries` when the log holds older ones. */
  deliveries: WebhookDelivery[];
  moreDeliveries: boolean;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }) : "—";

export function WebhookList({ rows }: { rows: WebhookRow[] }) {
  if (rows.length === 0) return <p className="text-muted-foreground text-sm">No webhooks yet.</p>;
  return (
    <div className="space-y-6">
      {rows.map((row) => (
        <WebhookCard key={row.webhook.id} row={row} />
      ))}
    </div>
  );
}

/** Runs an action, keeping its refusal to show next to the buttons. */
function useAction() {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = (work: () => Promise<ActionResult>) =>
    startTransition(async () => {
      const result = await work();
      setError(result.ok ? null : result.error.message);
    });
  return { pending, error, run };
}

function WebhookCard({ row: { webhook, deliveries, moreDeliveries } }: { row: WebhookRow }) {
  const { pending, error, run } = useAction();
  const remove = () => {
    if (!window.confirm(`Delete the webhook for ${webhook.url}? Its delivery log goes with it.`)) return;
    run(() => deleteWebhookAction(webhook.id));
  };
  return (
    <section className="space-y-3 rounded-lg border p-4" data-testid="webhook" aria-label={`Webhook ${webhook.url}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="break-all font-mono text-sm">{webhook.url}</p>
          <p className="text-muted-foreground text-xs">
            {webhook.events.join(", ")} · added {when(webhook.createdAt)} ·{" "}
            <span data-testid="webhook-state">{webhook.enabled ? "Active" : "Disabled"}</span>
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={pending}
            onClick={() => run(() => setWebhookEnabledAction({ id: webhook.id, enabled: !webhook.enabled }))}
          >
            {webhook.enabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="outline" size="sm" disabled={pending} onClick={remove}>
            Delete
          </Button>
        </div>
      </div>
      {webhook.enabled ? null : (
        <Alert tone="error" data-testid="webhook-disabled-notice">
          <strong className="font-medium">Deliveries are stopped.</strong>{" "}
          {webhook.disabledReason ?? "This webhook is disabled."} New events are not sent until you enable it; failed
          deliveries can then be sent again.
        </Alert>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <DeliveryLog webhookId={webhook.id} deliveries={deliveries} more={moreDeliveries} />
    </section>
  );
}

function DeliveryLog({
  webhookId,
  deliveries,
  more,
}: {
  webhookId: string;
  deliveries: WebhookDelivery[];
  more: boolean;
}) {
  const { pending, error, run } = useAction();
  if (deliveries.length === 0) return <p className="text-muted-foreground text-sm">No deliveries yet.</p>;
  return (
    <div className="space-y-2">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-left text-xs">
          <thead className="bg-muted/50 text-muted-foreground">
            <tr>
              <th className="px-2 py-1.5 font-medium">Event</th>
              <th className="px-2 py-1.5 font-medium">Status</th>
              <th className="px-2 py-1.5 font-medium">Attempts</th>
              <th className="px-2 py-1.5 font-medium">Last answer</th>
              <th className="px-2 py-1.5 font-medium">Created</th>
              <th className="px-2 py-1.5 font-medium">Last attempt</th>
              <th className="px-2 py-1.5 font-medium">Next / delivered</th>
              <th className="px-2 py-1.5" />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id} className="border-t align-top" data-testid="webhook-delivery">
                <td className="px-2 py-1.5 font-mono">{delivery.eventType}</td>
                <td className="px-2 py-1.5" data-testid="delivery-status">
                  {delivery.status}
                </td>
                <td className="px-2 py-1.5">{delivery.attempts}</td>
                <td className="px-2 py-1.5">
                  {delivery.lastStatusCode ? `HTTP ${delivery.lastStatusCode}` : ""}
                  {delivery.lastError ? <span className="block text-destructive">{delivery.lastError}</span> : null}
                </td>
                <td className="px-2 py-1.5">{when(delivery.createdAt)}</td>
                <td className="px-2 py-1.5">{when(delivery.lastAttemptAt)}</td>
                <td className="px-2 py-1.5">
                  {delivery.deliveredAt ? when(delivery.deliveredAt) : when(delivery.nextAttemptAt)}
                </td>
                <td className="px-2 py-1.5 text-right">
                  {delivery.status === "succeeded" || delivery.status === "failed" ? (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={pending}
                      onClick={() => run(() => redeliverAction({ webhookId, deliveryId: delivery.id }))}
                    >
                      Redeliver
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more ? (
        <p className="text-muted-foreground text-xs">
          Showing the newest {deliveries.length} deliveries; <code>GET /api/v1/webhooks/{webhookId}/deliveries</code>{" "}
          pages through the rest.
        </p>
      ) : null}
    </div>
  );
}
