import { describe, expect, it } from "vitest";
import {
  ATTACHMENT_CONTENT_TYPES,
  ContentType,
  EVENT_CONTENT_TYPES,
  KNOWN_CONTENT_TYPES,
  chatFrame,
  isItem,
  newClientToken,
  parseAwsErrorName,
  parseAwsErrorMessage,
  parseFrame,
  parseListPicker,
} from "./index.js";

describe("content types", () => {
  it("spell the connect event types exactly as the protocol page gives them", () => {
    expect(ContentType.TYPING).toBe("application/vnd.amazonaws.connect.event.typing");
    expect(ContentType.CHAT_ENDED).toBe("application/vnd.amazonaws.connect.event.chat.ended");
    expect(ContentType.AUTHENTICATION_CANCELLED).toBe(
      "application/vnd.amazonaws.connect.event.authentication.cancelled",
    );
    expect(ContentType.PARTICIPANT_AUTO_DISCONNECTION).toBe(
      "application/vnd.amazonaws.connect.event.participant.autodisconnection",
    );
  });
  it("accept text, markdown, attachments, interactive and events but not unknown types", () => {
    for (const t of [
      "text/plain",
      "text/markdown",
      "application/pdf",
      "audio/x-wav",
      ContentType.TYPING,
    ]) {
      expect(KNOWN_CONTENT_TYPES.has(t)).toBe(true);
    }
    expect(KNOWN_CONTENT_TYPES.has("text/html")).toBe(false);
    expect(KNOWN_CONTENT_TYPES.has(ContentType.MESSAGE_METADATA)).toBe(false);
  });

  it("are exactly text, markdown, the attachment, interactive and event types", () => {
    const expected = new Set([
      ContentType.TEXT_MARKDOWN,
      ContentType.INTERACTIVE_MESSAGE,
      ContentType.INTERACTIVE_RESPONSE,
      ...ATTACHMENT_CONTENT_TYPES,
      ...EVENT_CONTENT_TYPES,
    ]);
    expect([...KNOWN_CONTENT_TYPES].sort()).toEqual([...expected].sort());
  });
});

describe("AWS error name parsing", () => {
  it("prefers the header, then body code, then __type", () => {
    expect(parseAwsErrorName(403, "AccessDeniedException", { __type: "X" })).toBe(
      "AccessDeniedException",
    );
    expect(parseAwsErrorName(400, null, { code: "ValidationException", __type: "X" })).toBe(
      "ValidationException",
    );
    expect(parseAwsErrorName(400, undefined, { __type: "ThrottlingException" })).toBe(
      "ThrottlingException",
    );
  });
  it("drops text after a colon or comma and keeps only the part after #", () => {
    expect(parseAwsErrorName(403, "AccessDeniedException:http://internal/x", {})).toBe(
      "AccessDeniedException",
    );
    expect(
      parseAwsErrorName(403, null, {
        __type: "com.amazonaws.connectparticipant#AccessDeniedException",
      }),
    ).toBe("AccessDeniedException");
    expect(parseAwsErrorName(409, "ConflictException,extra", {})).toBe("ConflictException");
  });
  it("falls back to the status code as text", () => {
    expect(parseAwsErrorName(502, null, "not json")).toBe("502");
  });
  it("reads message, else Message", () => {
    expect(parseAwsErrorMessage({ message: "a" })).toBe("a");
    expect(parseAwsErrorMessage({ Message: "b" })).toBe("b");
    expect(parseAwsErrorMessage(null)).toBeUndefined();
  });
});

describe("websocket frames", () => {
  it("ignore empty frames and mark non-JSON frames invalid", () => {
    expect(parseFrame("")).toEqual({ kind: "empty" });
    expect(parseFrame("not json")).toEqual({ kind: "invalid", raw: "not json" });
    expect(parseFrame("[1]")).toEqual({ kind: "invalid", raw: "[1]" });
    expect(parseFrame('{"topic":"aws/heartbeat"}')).toEqual({
      kind: "frame",
      frame: { topic: "aws/heartbeat" },
    });
  });
  it("serialise chat items as a JSON string inside the envelope", () => {
    const item = {
      Id: "1",
      Type: "MESSAGE",
      AbsoluteTime: "2025-01-01T00:00:00.000Z",
      Content: "hi",
    };
    const frame = chatFrame(item);
    expect(typeof frame.content).toBe("string");
    expect(JSON.parse(frame.content as string)).toEqual(item);
    expect(isItem(JSON.parse(frame.content as string))).toBe(true);
    expect(isItem({ Id: 1 })).toBe(false);
  });
});

describe("list picker", () => {
  it("parses a ListPicker with title and element titles", () => {
    const t = parseListPicker(
      JSON.stringify({
        templateType: "ListPicker",
        version: "1.0",
        data: { content: { title: "Pick", elements: [{ title: "A" }] } },
      }),
    );
    expect(t?.data.content.elements.map((e) => e.title)).toEqual(["A"]);
  });
  it("rejects other templates, bad JSON and elements without titles", () => {
    expect(parseListPicker("{")).toBeNull();
    expect(
      parseListPicker(
        JSON.stringify({ templateType: "TimePicker", data: { content: { title: "x" } } }),
      ),
    ).toBeNull();
    expect(
      parseListPicker(
        JSON.stringify({
          templateType: "ListPicker",
          data: { content: { title: "x", elements: [{}] } },
        }),
      ),
    ).toBeNull();
  });
});

describe("ClientTokens", () => {
  it("are UUID v4s, a new one each time", () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newClientToken()));
    expect(tokens.size).toBe(100);
    for (const t of tokens) {
      expect(t).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
