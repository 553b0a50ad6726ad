/** Entry point: the console against the contact centre that serves it. */
import { ChatSession } from "@chat-widget/chat-client";
import { createRoot } from "react-dom/client";
import { createAgentApi } from "./api/agent-api.js";
import { App } from "./components/App.js";
import "./styles.css";

const origin = window.location.origin;
ChatSession.setGlobalConfig({ region: "eu-west-2", endpoint: origin });

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");
createRoot(root).render(<App api={createAgentApi({ baseUrl: origin })} />);
