"use client";

import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { revokeKeyAction } from "./actions";

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const day = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function statusOf(key: KeyRow): string {
  if (key.revokedAt) return `Revoked ${day(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return `Expired ${day(key.expiresAt)}`;
  return key.expiresAt ? `Expires ${day(key.expiresAt)}` : "Active";
}

export function KeyList({ keys }: { keys: KeyRow[] }) {
  if (keys.length === 0) return <p className="text-muted-foreground text-sm">No API keys yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted/50 text-muted-foreground text-xs">
          <tr>
            <th className="px-3 py-2 font-medium">Name</th>
            <th className="px-3 py-2 font-medium">Key</th>
            <th className="px-3 py-2 font-medium">Scopes</th>
            <th className="px-3 py-2 font-medium">Last used</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2" />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRowView key={key.id} apiKey={key} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRowView({ apiKey }: { apiKey: KeyRow }) {
  const [pending, startTransition] = useTransition();
  const revoke = () => {
    if (!window.confirm(`Revoke "${apiKey.name}"? Apps using it will get 401 from now on.`)) return;
    startTransition(async () => {
      await revokeKeyAction(apiKey.id);
    });
  };
  return (
    <tr className="border-t" data-testid="api-key-row">
      <td className="px-3 py-2">{apiKey.name}</td>
      <td className="px-3 py-2 font-mono text-xs">{apiKey.prefix}…</td>
      <td className="px-3 py-2">{apiKey.scopes.join(", ")}</td>
      <td className="px-3 py-2 text-muted-foreground">{apiKey.lastUsedAt ? day(apiKey.lastUsedAt) : "Never"}</td>
      <td className="px-3 py-2 text-muted-foreground">{statusOf(apiKey)}</td>
      <td className="px-3 py-2 text-right">
        {apiKey.revokedAt ? null : (
          <Button variant="outline" size="sm" onClick={revoke} disabled={pending}>
            {pending ? "Revoking…" : "Revoke"}
          </Button>
        )}
      </td>
    </tr>
  );
}
