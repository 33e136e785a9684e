import { chatModelId, configuredChatModels } from "@/lib/ai/config";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import type { ChatMessage } from "@/lib/chat/types";
import { ChatView } from "./chat-view";
import { OfflineBanner } from "./offline-banner";

export function ChatPage({ threadId, messages }: { threadId: string; messages: ChatMessage[] }) {
  const defaultModel = chatModelId();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col">
      {defaultModel === OFFLINE_MODEL_ID ? <OfflineBanner /> : null}
      <ChatView
        threadId={threadId}
        initialMessages={messages}
        models={configuredChatModels()}
        defaultModel={defaultModel}
      />
    </div>
  );
}
