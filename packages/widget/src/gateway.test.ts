import { describe, expect, it } from "vitest";
import { createGateway } from "./gateway.js";
import { readSettings } from "./settings.js";
import { CHAT } from "./test-support/fakes.js";

const settings = readSettings(
  { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset: {} },
  "http://127.0.0.1:8080/",
);

function recorder(respond: (url: string) => Response) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return respond(url);
  };
  return { calls, fetch };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("widget service and gateway calls", () => {
  it("GET verify with the Snippet-Id header; success is the response ok flag", async () => {
    const r = recorder(() => json({ ok: true }));
    expect(await createGateway(settings, r.fetch).verify()).toBe(true);
    expect(r.calls[0]!.url).toBe("http://127.0.0.1:8080/widget-service/verify");
    expect(r.calls[0]!.init?.method).toBe("GET");
    expect(r.calls[0]!.init?.headers).toEqual({ "Snippet-Id": "demo-snippet" });
    expect(
      await createGateway(settings, recorder(() => json({ ok: true }, 403)).fetch).verify(),
    ).toBe(false);
  });

  it("verify: success is the response ok flag alone; a 200 with an empty body succeeds, a 403 fails", async () => {
    const empty = recorder(() => new Response(null, { status: 200 }));
    expect(await createGateway(settings, empty.fetch).verify()).toBe(true);
    const text = recorder(() => new Response("", { status: 200 }));
    expect(await createGateway(settings, text.fetch).verify()).toBe(true);
    const refused = recorder(() => new Response(null, { status: 403 }));
    expect(await createGateway(settings, refused.fetch).verify()).toBe(false);
  });

  it("POST start-chat with ParticipantDetails.DisplayName, ContactFlowId, InstanceId, SupportedMessagingContentTypes; reads data.startChatResult", async () => {
    const r = recorder(() => json({ data: { startChatResult: CHAT } }));
    expect(await createGateway(settings, r.fetch).startChat("a.b.c")).toEqual(CHAT);
    expect(r.calls[0]!.url).toBe("http://127.0.0.1:8080/gateway/start-chat");
    expect(JSON.parse(r.calls[0]!.init!.body as string)).toEqual({
      ParticipantDetails: { DisplayName: "Customer" },
      ContactFlowId: "default-flow",
      InstanceId: "demo-instance",
      SupportedMessagingContentTypes: ["text/plain", "text/markdown"],
      Jwt: "a.b.c",
    });
    await expect(
      createGateway(settings, recorder(() => json({}, 500)).fetch).startChat(undefined),
    ).rejects.toThrow();
    await expect(
      createGateway(settings, recorder(() => json({ data: {} })).fetch).startChat(undefined),
    ).rejects.toThrow();
  });

  it("POST discussed-order-number with InstanceId, InitialContactId, Attributes and the participant's token; only the ok flag is read", async () => {
    const r = recorder(() => new Response(null, { status: 204 }));
    const chat = { ContactId: "contact-1", ParticipantId: "p-1", ParticipantToken: "pt-1" };
    expect(
      await createGateway(settings, r.fetch).reportOrderNumber(chat, { orderNumber: "42" }),
    ).toBe(true);
    expect(new Headers(r.calls[0]!.init!.headers).get("x-amz-bearer")).toBe("pt-1");
    expect(r.calls[0]!.url).toBe("http://127.0.0.1:8080/gateway/discussed-order-number");
    expect(JSON.parse(r.calls[0]!.init!.body as string)).toEqual({
      InstanceId: "demo-instance",
      InitialContactId: "contact-1",
      Attributes: { orderNumber: "42" },
    });
    expect(
      await createGateway(settings, recorder(() => json({}, 400)).fetch).reportOrderNumber(
        chat,
        {},
      ),
    ).toBe(false);
  });
});
