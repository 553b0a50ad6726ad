import { describe, expect, it } from "vitest";
import type { Entry } from "./entries.js";
import { en } from "../texts.js";
import { transcriptText } from "./transcript-text.js";

const base = { contentType: "text/plain", displayName: "" };
const time = (iso: string) => iso.slice(11, 16);

describe("the downloaded transcript", () => {
  it("is one line per entry with its time and who wrote it: You, the advisor's name (else Advisor), the bot's name; events alone", () => {
    const entries: Entry[] = [
      {
        ...base,
        kind: "text",
        id: "1",
        absoluteTime: "2026-11-26T10:00:00.000Z",
        participantRole: "system",
        displayName: "BOT",
        content: "Hello! How can we help?",
      },
      {
        ...base,
        kind: "template",
        id: "2",
        absoluteTime: "2026-11-26T10:00:01.000Z",
        participantRole: "system",
        displayName: "BOT",
        content: JSON.stringify({
          templateType: "ListPicker",
          version: "1.0",
          data: {
            content: {
              title: "Choose",
              elements: [{ title: "Order status" }, { title: "Talk to an advisor" }],
            },
          },
        }),
      },
      {
        ...base,
        kind: "text",
        id: "3",
        absoluteTime: "2026-11-26T10:00:05.000Z",
        participantRole: "customer",
        displayName: "Customer",
        content: "Talk to an advisor",
      },
      {
        ...base,
        kind: "event",
        id: "4",
        absoluteTime: "2026-11-26T10:01:00.000Z",
        participantRole: "agent",
        displayName: "Sam",
        event: "JOINED",
        name: "Sam",
      },
      {
        ...base,
        kind: "text",
        id: "5",
        absoluteTime: "2026-11-26T10:01:10.000Z",
        participantRole: "agent",
        displayName: "",
        content: "Hi,\nhow can I help?",
      },
      {
        ...base,
        kind: "attachment",
        id: "6",
        absoluteTime: "2026-11-26T10:02:00.000Z",
        participantRole: "agent",
        displayName: "Sam",
        content: "",
        attachment: {
          attachmentId: "a",
          name: "label.png",
          contentType: "image/png",
          status: "APPROVED",
        },
      },
      {
        ...base,
        kind: "text",
        id: "local:x",
        absoluteTime: "2026-11-26T10:03:00.000Z",
        participantRole: "customer",
        displayName: "Customer",
        content: "Thanks",
        delivery: "failed",
      },
      {
        ...base,
        kind: "event",
        id: "7",
        absoluteTime: "",
        participantRole: "system",
        event: "CHAT_ENDED",
        name: "",
      },
    ];
    expect(transcriptText(entries, time, en)).toBe(
      [
        "[10:00] BOT: Hello! How can we help?",
        "[10:00] BOT: Choose",
        "- Order status",
        "- Talk to an advisor",
        "[10:00] You: Talk to an advisor",
        "[10:01] Sam has joined the chat",
        "[10:01] Advisor: Hi,",
        "how can I help?",
        "[10:02] Sam: [label.png]",
        "[10:03] You: Thanks (Not sent)",
        "Chat has ended!",
        "",
      ].join("\n"),
    );
  });
});
