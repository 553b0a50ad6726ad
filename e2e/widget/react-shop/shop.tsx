/**
 * A shop built with React that embeds the widget from the npm package (`@chat-widget/widget`,
 * its built lib/ as published), in StrictMode: its own Help button opens the chat through the
 * component's ref, and every callback is recorded on `window.heard`.
 */
import { StrictMode, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { ChatWidget } from "@chat-widget/widget";
import type { ChatWidgetApi } from "@chat-widget/widget";

const heard: string[] = [];
(window as unknown as { heard: string[] }).heard = heard;

function Shop({ server }: { server: string }) {
  const chat = useRef<ChatWidgetApi>(null);
  const [unread, setUnread] = useState(0);
  return (
    <main>
      <h1>React shop</h1>
      <button id="help" onClick={() => chat.current?.open()}>
        Help{unread > 0 ? ` (${unread})` : ""}
      </button>
      <button id="hide" onClick={() => chat.current?.minimise()}>
        Hide the chat
      </button>
      <ChatWidget
        ref={chat}
        server={server}
        locale="fr"
        launcher="hidden"
        telemetry={false}
        onOpen={() => heard.push("open")}
        onMinimise={() => heard.push("minimise")}
        onMessage={(entry) => heard.push(`message ${entry.participantRole}`)}
        onUnread={(count) => {
          setUnread(count);
          heard.push(`unread ${count}`);
        }}
        onEnded={() => heard.push("ended")}
      />
    </main>
  );
}

const root = document.getElementById("root")!;
createRoot(root).render(
  <StrictMode>
    <Shop server={root.dataset.server!} />
  </StrictMode>,
);
