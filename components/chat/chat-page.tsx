import { configuredChatModels } from "@/lib/ai/config";
import type { ChatMessage } from "@/lib/chat/types";
import { config, OFFLINE_MODEL_ID } from "@/lib/config";
import { ChatView } from "./chat-view";
import { OfflineBanner } from "./offline-banner";

export function ChatPage({ threadId, messages }: { threadId: string; messages: ChatMessage[] }) {
  const defaultModel = config().CHAT_MODEL;
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
