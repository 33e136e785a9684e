import { Info } from "lucide-react";

export function OfflineBanner() {
  return (
    <div
      role="note"
      className="mb-4 flex gap-2 rounded-lg border border-primary/30 bg-accent px-3 py-2 text-accent-foreground text-xs"
      data-testid="offline-banner"
    >
      <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <p>
        You are chatting with the <strong>offline model</strong>: it needs no key and follows simple rules (remember,
        prefer, forget, questions). For real conversation set <code>CHAT_MODEL</code> (e.g.{" "}
        <code>openai:gpt-5-mini</code>) and the provider's key, such as <code>OPENAI_API_KEY</code>.
      </p>
    </div>
  );
}
