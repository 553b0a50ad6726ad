import {
  ContentType,
  DemoIds,
  GatewayPath,
  ParticipantPath,
  SNIPPET_ID_HEADER,
  type Item,
  type StartChatResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "../support/client.js";
import { DEMO_JWT_SECRET } from "../../src/demo/demo-jwt.js";
import { decodeJwt, jwtAttributes, signJwt } from "../../src/gateway/jwt.js";
import { MAX_CONTACT_ATTRIBUTES } from "../../src/contact-centre/contact-centre.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { http, postFrom, postStartChat, startChatBody, startFeatureServer } from "./helpers.js";

const EVIL = "https://evil.example";

/** A start-chat from the given loopback address, so the server sees another client address. */
const startChatFrom = (server: TestServer, localAddress: string) =>
  postFrom(server.url + GatewayPath.StartChat, localAddress, startChatBody(), {
    origin: server.url,
  });

/** The visitor's report of what it discussed (attributes), with its participant token if given. */
const reportTo = (server: TestServer, contactId: string, attributes: unknown, token?: string) =>
  http(server.url + GatewayPath.DiscussedOrderNumber, {
    headers: { origin: server.url, ...(token ? { "x-amz-bearer": token } : {}) },
    body: { InstanceId: DemoIds.INSTANCE_ID, InitialContactId: contactId, Attributes: attributes },
  });

describe.each(ENGINES)("widget service and gateway (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(() => server.close());

  const verify = (headers: Record<string, string>) =>
    http(server.url + GatewayPath.Verify, { headers });
  const startChat = (body: unknown, origin = server.url) =>
    http<StartChatResponse>(server.url + GatewayPath.StartChat, { headers: { origin }, body });

  it("verify answers ok for a registered snippet id from an allowed origin, with CORS for that origin", async () => {
    const r = await verify({ origin: server.url, [SNIPPET_ID_HEADER]: DemoIds.SNIPPET_ID });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
    expect(r.headers.get("access-control-allow-origin")).toBe(server.url);
    // No Origin (same-origin GET or a local tool) from loopback is fine too.
    expect((await verify({ [SNIPPET_ID_HEADER]: DemoIds.SNIPPET_ID })).status).toBe(200);
  });

  it("verify answers 403 for an unknown snippet id or another origin, 400 without the header", async () => {
    const unknown = await verify({ origin: server.url, [SNIPPET_ID_HEADER]: "other" });
    expect(unknown.status).toBe(403);
    expect(unknown.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    expect(unknown.body).toMatchObject({
      __type: "AccessDeniedException",
      message: "Snippet other is not registered.",
    });
    const evil = await verify({ origin: EVIL, [SNIPPET_ID_HEADER]: DemoIds.SNIPPET_ID });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    expect((await verify({ origin: server.url })).status).toBe(400);
  });

  it("answers CORS preflights for allowed origins only", async () => {
    const ok = await http(server.url + GatewayPath.StartChat, {
      method: "OPTIONS",
      headers: {
        origin: server.url,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(server.url);
    expect(ok.headers.get("access-control-allow-headers")).toBe("content-type");
    const evil = await http(server.url + GatewayPath.StartChat, {
      method: "OPTIONS",
      headers: { origin: EVIL, "access-control-request-method": "POST" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("start-chat starts a contact on the configured instance and flow", async () => {
    const r = await startChat(startChatBody());
    expect(r.status).toBe(200);
    const result = r.body.data.startChatResult;
    expect(result).toEqual({
      ContactId: expect.any(String),
      ParticipantId: expect.any(String),
      ParticipantToken: expect.any(String),
      ContinuationToken: expect.any(String),
    });
    const contact = await server.built.deps.centre.getContact(result.ContactId);
    expect(contact).toMatchObject({
      instanceId: DemoIds.INSTANCE_ID,
      contactFlowId: DemoIds.CONTACT_FLOW_ID,
      status: "active",
    });
    expect((await startChat(startChatBody(), EVIL)).status).toBe(403);
  });

  it("start-chat refuses unknown instances and flows (404) and malformed bodies (400)", async () => {
    const instance = await startChat(startChatBody({ InstanceId: "nope" }));
    expect(instance.status).toBe(404);
    expect(instance.body).toMatchObject({
      __type: "ResourceNotFoundException",
      ResourceType: "INSTANCE",
    });
    const flow = await startChat(startChatBody({ ContactFlowId: "nope" }));
    expect(flow.status).toBe(404);
    expect(flow.body).toMatchObject({ ResourceType: "CONTACT_FLOW" });
    const missing = await startChat({ InstanceId: DemoIds.INSTANCE_ID });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ __type: "ValidationException" });
    expect((missing.body as unknown as { message: string }).message).toContain(
      "ParticipantDetails",
    );
    const wrongType = await startChat(
      startChatBody({ SupportedMessagingContentTypes: ["text/html"] }),
    );
    expect(wrongType.status).toBe(400);
    const notJson = await http(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url, "content-type": "application/json" },
      rawBody: "{nope",
    });
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get("x-amzn-errortype")).toBe("ValidationException");
    const badJwt = await startChat(startChatBody({ Jwt: "not-a-jwt" }));
    expect(badJwt.status).toBe(400);
  });

  it("throttles start-chat per client address: a burst beyond 20 from one address gets 429 with Retry-After, while another address still starts chats", async () => {
    // From addresses of their own, so the other tests (from 127.0.0.1) keep their allowance.
    const burst = await Promise.all(
      Array.from({ length: 30 }, () => startChatFrom(server, "127.0.0.3")),
    );
    const started = burst.filter((r) => r.status === 200);
    const refused = burst.filter((r) => r.status === 429);
    // 20 at once, plus one every 3 s should the burst take that long to arrive.
    expect(started.length).toBeGreaterThanOrEqual(20);
    expect(started.length).toBeLessThan(25);
    expect(started.length + refused.length).toBe(30);
    for (const r of refused) {
      const seconds = Number(r.retryAfter);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(3);
      expect(r.body).toEqual({
        __type: "ThrottlingException",
        message: `Too many chats started. Try again in ${seconds} s.`,
      });
    }
    const other = await startChatFrom(server, "127.0.0.2");
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({
      data: { startChatResult: { ContactId: expect.any(String) } },
    });
  });

  it("start-chat reads the JSON Amazon's chat interface sends: labelled text/plain;charset=UTF-8 or unlabelled, without SupportedMessagingContentTypes, or listing the interactive type", async () => {
    const { SupportedMessagingContentTypes: _omitted, ...bare } = startChatBody();
    const asText = await http<StartChatResponse>(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url, "content-type": "text/plain;charset=UTF-8" },
      rawBody: JSON.stringify(bare),
    });
    expect(asText.status).toBe(200);
    expect(asText.body.data.startChatResult.ParticipantToken).toEqual(expect.any(String));
    const interactive = await startChat(
      startChatBody({
        SupportedMessagingContentTypes: [
          "text/plain",
          "application/vnd.amazonaws.connect.message.interactive",
        ],
      }),
    );
    expect(interactive.status).toBe(200);
    const unlabelled = await fetch(server.url + GatewayPath.StartChat, {
      method: "POST",
      headers: { origin: server.url },
      body: new Blob([JSON.stringify(bare)]),
    });
    expect(unlabelled.status).toBe(200);
  });

  it("a start-chat body of another type that is not JSON is 400 ValidationException; one over 64 KiB is refused", async () => {
    const notJson = await http(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url, "content-type": "text/plain" },
      rawBody: "InstanceId=demo",
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({
      __type: "ValidationException",
      message: "Body is not valid JSON.",
    });
    const huge = await http(server.url + GatewayPath.StartChat, {
      headers: { origin: server.url, "content-type": "text/plain" },
      rawBody: JSON.stringify({ ...startChatBody(), Padding: "x".repeat(70 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get("x-amzn-errortype")).toBe("ValidationException");
  });

  const report = (contactId: string, attributes: unknown, token?: string) =>
    reportTo(server, contactId, attributes, token);
  const attributesOf = async (contactId: string) =>
    (await server.built.deps.centre.getContact(contactId))!.attributes;

  it("start-chat attaches the signed jwt's attributes; the customer's report adds keys the advisor sees", async () => {
    const jwt = signJwt({ attributes: { orderNumber: "A-10042", items: 2 } }, DEMO_JWT_SECRET);
    const r = await startChat(startChatBody({ Jwt: jwt }));
    const { ContactId, ParticipantToken } = r.body.data.startChatResult;
    expect(await attributesOf(ContactId)).toEqual({ orderNumber: "A-10042", items: "2" });
    const ok = await report(ContactId, { orderNumber: "B-7", page: "checkout" }, ParticipantToken);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    // The signed jwt's order number stands; the report only adds a key.
    expect(await attributesOf(ContactId)).toEqual({
      orderNumber: "A-10042",
      items: "2",
      page: "checkout",
    });
  });

  it("a report acts only on the caller's own contact (its customer's ParticipantToken) and never renames the customer", async () => {
    const mine = (await startChat(startChatBody())).body.data.startChatResult;
    const theirs = (await startChat(startChatBody())).body.data.startChatResult;
    const mallory = { customerName: "Mallory <b>x</b>", orderNumber: "EVIL-1" };
    for (const attempt of [
      await report(theirs.ContactId, mallory), // no token
      await report(theirs.ContactId, mallory, "made-up-token"),
      await report(theirs.ContactId, mallory, mine.ParticipantToken), // someone else's contact
      await report("missing", mallory, mine.ParticipantToken), // no such contact: no leak either
    ]) {
      expect(attempt.status).toBe(403);
      expect(attempt.headers.get("x-amzn-errortype")).toBe("AccessDeniedException");
    }
    expect(await attributesOf(theirs.ContactId)).toEqual({});
    const own = await report(mine.ContactId, mallory, mine.ParticipantToken);
    expect(own.status).toBe(200);
    expect(await attributesOf(mine.ContactId)).toEqual({ orderNumber: "EVIL-1" });
  });

  it("reports cannot grow a contact's attributes past MAX_CONTACT_ATTRIBUTES", async () => {
    const { ContactId, ParticipantToken } = (await startChat(startChatBody())).body.data
      .startChatResult;
    const keys = (from: number) =>
      Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`key-${from + i}`, "x".repeat(100)]),
      );
    expect((await report(ContactId, keys(0), ParticipantToken)).status).toBe(200);
    expect((await report(ContactId, keys(50), ParticipantToken)).status).toBe(200);
    const third = await report(ContactId, keys(100), ParticipantToken);
    expect(third.status).toBe(400);
    expect(third.body).toMatchObject({
      __type: "ValidationException",
      message: `A contact holds at most ${MAX_CONTACT_ATTRIBUTES} attributes; these would pass that.`,
    });
    expect(Object.keys(await attributesOf(ContactId))).toHaveLength(MAX_CONTACT_ATTRIBUTES);
    // Keys it already has still report fine (nothing new is added).
    expect((await report(ContactId, { "key-0": "y" }, ParticipantToken)).status).toBe(200);
  });

  it("concurrent reports cannot pass MAX_CONTACT_ATTRIBUTES together", async () => {
    const { ContactId, ParticipantToken } = (await startChat(startChatBody())).body.data
      .startChatResult;
    // 12 reports of 30 new keys at once: each fits alone, only 3 fit together.
    const reports = await Promise.all(
      Array.from({ length: 12 }, (_, r) =>
        report(
          ContactId,
          Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`r${r}-k${i}`, "v"])),
          ParticipantToken,
        ),
      ),
    );
    const statuses = reports.map((x) => x.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 400)).toHaveLength(9);
    expect(Object.keys(await attributesOf(ContactId))).toHaveLength(90);
  });

  it("an unsigned (alg none), forged, expired or not-yet-valid jwt is refused with a clear 403; no chat starts", async () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const none = `${part({ alg: "none", typ: "JWT" })}.${part({ attributes: { vip: "yes" } })}.`;
    const cases: [string, string][] = [
      [none, "The jwt must be signed with HS256"],
      [signJwt({ attributes: {} }, "guess"), "The jwt's signature is not valid"],
      [signJwt({ exp: now - 60 }, DEMO_JWT_SECRET), "The jwt has expired"],
      [signJwt({ nbf: now + 3600 }, DEMO_JWT_SECRET), "The jwt is not valid yet"],
    ];
    for (const [jwt, message] of cases) {
      const refused = await startChat(startChatBody({ Jwt: jwt }));
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ __type: "AccessDeniedException", message });
    }
  });

  it("discussed-order-number refuses bad bodies (400) and unknown contacts like any not the caller's (403)", async () => {
    const post = (body: unknown) =>
      http(server.url + GatewayPath.DiscussedOrderNumber, {
        headers: { origin: server.url },
        body,
      });
    const numbers = await post({
      InstanceId: DemoIds.INSTANCE_ID,
      InitialContactId: "x",
      Attributes: { orderNumber: 42 },
    });
    expect(numbers.status).toBe(400);
    expect((numbers.body as { message: string }).message).toContain("Attributes");
    expect((await post({ InstanceId: DemoIds.INSTANCE_ID, Attributes: {} })).status).toBe(400);
    expect((await post([])).status).toBe(400);
    const unknown = await post({
      InstanceId: DemoIds.INSTANCE_ID,
      InitialContactId: "missing",
      Attributes: {},
    });
    expect(unknown.status).toBe(403);
  });
});

describe("start-chat as StartChatContact takes it (issue 17)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("pglite", { START_CHAT_ATTRIBUTES: "plan,locale" });
  }, 120_000);
  afterAll(() => server.close());

  const startChat = (extra: Record<string, unknown>) => postStartChat(server, extra);

  it("the answer carries featurePermissions, attachments on by default (the chat interface reads them)", async () => {
    const r = await startChat({});
    expect(r.body.data.featurePermissions).toEqual({ ATTACHMENTS: true });
  });

  it("InitialMessage is the customer's first message, right after they join", async () => {
    const r = await startChat({
      InitialMessage: { ContentType: "text/plain", Content: "Where is my parcel?" },
    });
    expect(r.status).toBe(200);
    const { ParticipantToken } = r.body.data.startChatResult;
    const { connectionToken } = await connectParticipant(server.url, ParticipantToken);
    const page = await call<{ Transcript: Item[] }>(
      server.url,
      ParticipantPath.GetTranscript,
      connectionToken,
      { ScanDirection: "FORWARD", SortOrder: "ASCENDING", MaxResults: 100 },
    );
    const [joined, first] = page.body.Transcript;
    expect(joined).toMatchObject({ ContentType: ContentType.PARTICIPANT_JOINED });
    expect(first).toMatchObject({
      Type: "MESSAGE",
      ParticipantRole: "CUSTOMER",
      ContentType: "text/plain",
      Content: "Where is my parcel?",
    });
    for (const bad of [
      { ContentType: "text/html", Content: "x" },
      { ContentType: "text/plain", Content: "" },
      { ContentType: "text/plain", Content: "x".repeat(1025) },
    ]) {
      expect((await startChat({ InitialMessage: bad })).status).toBe(400);
    }
  });

  it("the integrator's Attributes are kept only for allowed keys, and the signed jwt's win", async () => {
    const jwt = signJwt({ attributes: { plan: "silver" } }, DEMO_JWT_SECRET);
    const r = await startChat({
      Jwt: jwt,
      Attributes: { plan: "gold", locale: "en-GB", customerName: "Mallory" },
    });
    expect(r.status).toBe(200);
    const contact = await server.built.deps.centre.getContact(
      r.body.data.startChatResult.ContactId,
    );
    expect(contact!.attributes).toEqual({ plan: "silver", locale: "en-GB" });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    expect((await startChat({ Attributes: many })).status).toBe(400);
    expect((await startChat({ Attributes: { plan: 7 } })).status).toBe(400);
  });

  it("PersistentChat needs a rehydration type, proof (403 without) and an ended source contact of the instance (400 otherwise)", async () => {
    const started = (await startChat({})).body.data.startChatResult;
    const earlier = started.ContactId;
    const persistent = (SourceContactId: string, RehydrationType = "ENTIRE_PAST_SESSION") =>
      startChat({
        PersistentChat: {
          RehydrationType,
          SourceContactId,
          ContinuationToken: started.ContinuationToken,
        },
      });
    const active = await persistent(earlier);
    expect(active.status).toBe(400);
    expect(active.body).toMatchObject({
      message: `PersistentChat.SourceContactId ${earlier} has not ended: only an ended chat can be continued.`,
    });
    expect((await persistent("no-such-contact")).status).toBe(403);
    expect((await persistent(earlier, "SOMETIMES")).status).toBe(400);
    await server.built.deps.centre.endContact(earlier);
    expect((await persistent(earlier)).status).toBe(200);
  });
});

describe("with INSTANCE_START_CHAT_BURST=3 and INSTANCE_START_CHAT_PER_SECOND=1", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("pglite", {
      INSTANCE_START_CHAT_BURST: "3",
      INSTANCE_START_CHAT_PER_SECOND: "1",
    });
  }, 120_000);
  afterAll(() => server.close());

  it("the instance takes three starts at once from any addresses, then refuses with 429 and Retry-After", async () => {
    const addresses = ["127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8"];
    const starts = await Promise.all(addresses.map((a) => startChatFrom(server, a)));
    const started = starts.filter((r) => r.status === 200);
    const refused = starts.filter((r) => r.status === 429);
    // Three at once, plus the one a second brings back should the starts take that long.
    expect(started.length).toBeGreaterThanOrEqual(3);
    expect(started.length).toBeLessThanOrEqual(4);
    expect(started.length + refused.length).toBe(5);
    for (const r of refused) {
      expect(r.retryAfter).toBe("1");
      expect(r.body).toEqual({
        __type: "ThrottlingException",
        message: "Too many chats started. Try again in 1 s.",
      });
    }
  });
});

// One token in 1,000 s: the bucket cannot refill during the test, however slowly a loaded
// machine answers (at the default 10 a second, 45 reports in a row once all got through).
describe("with RATE_LIMIT_BURST=3 and RATE_LIMIT_PER_SECOND=0.001", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("pglite", {
      RATE_LIMIT_BURST: "3",
      RATE_LIMIT_PER_SECOND: "0.001",
    });
  }, 120_000);
  afterAll(() => server.close());

  it("a visitor's reports cannot flood: 429 with Retry-After past the participant's burst, nothing of the refused report kept", async () => {
    const { ContactId, ParticipantToken } = (await postStartChat(server)).body.data.startChatResult;
    const report = (attributes: Record<string, string>) =>
      reportTo(server, ContactId, attributes, ParticipantToken);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await report({ [`k${i}`]: "v" })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await report({ late: "v" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-amzn-errortype")).toBe("ThrottlingException");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(900);
    const contact = await server.built.deps.centre.getContact(ContactId);
    expect(contact!.attributes).toEqual({ k0: "v", k1: "v", k2: "v" });
  });
});

describe("with ATTACHMENTS=off", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("pglite", { ATTACHMENTS: "off" });
  }, 120_000);
  afterAll(() => server.close());

  it("start-chat says attachments are off, and an upload is refused (403)", async () => {
    const r = await postStartChat(server);
    expect(r.body.data.featurePermissions).toEqual({ ATTACHMENTS: false });
    const { connectionToken } = await connectParticipant(
      server.url,
      r.body.data.startChatResult.ParticipantToken,
    );
    const upload = await call(server.url, ParticipantPath.StartAttachmentUpload, connectionToken, {
      ContentType: "image/png",
      AttachmentSizeInBytes: 3,
      AttachmentName: "a.png",
      ClientToken: "c1",
    });
    expect(upload.status).toBe(403);
    expect(upload.body).toMatchObject({
      message: "Attachments are not enabled on this contact centre.",
    });
  });
});

describe("demo shop page through the server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("postgres");
  }, 120_000);
  afterAll(() => server.close());

  it("/ embeds the widget with a demo jwt carrying the order number", async () => {
    const r = await fetch(server.url + "/");
    expect(r.headers.get("content-type")).toContain("text/html");
    const html = await r.text();
    expect(html).toContain('<script src="/widget/chat-widget.js" defer></script>');
    const jwt = /<chat-widget jwt="([^"]+)"><\/chat-widget>/.exec(html)![1]!;
    expect(jwtAttributes(decodeJwt(jwt)).orderNumber).toBe("A-10042");
    const script = await fetch(server.url + "/widget/chat-widget.js");
    expect([200, 503]).toContain(script.status);
  });
});

describe("visitor jwt verification with WIDGET_JWT_SECRET", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startFeatureServer("postgres", { WIDGET_JWT_SECRET: "shop-secret" });
  }, 120_000);
  afterAll(() => server.close());

  it("accepts a jwt signed with the key and refuses another signature (403)", async () => {
    const post = (jwt: string) => postStartChat(server, { Jwt: jwt });
    const good = await post(signJwt({ attributes: { orderNumber: "A-1" } }, "shop-secret"));
    expect(good.status).toBe(200);
    const contactId = good.body.data.startChatResult.ContactId;
    const forged = await post(signJwt({ attributes: { orderNumber: "A-1" } }, "guess"));
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({
      __type: "AccessDeniedException",
      message: "The jwt's signature is not valid",
    });
    // The verified order number stands; a report only adds keys.
    await http(server.url + GatewayPath.DiscussedOrderNumber, {
      headers: {
        origin: server.url,
        "x-amz-bearer": good.body.data.startChatResult.ParticipantToken,
      },
      body: {
        InstanceId: DemoIds.INSTANCE_ID,
        InitialContactId: contactId,
        Attributes: { orderNumber: "Z-9", page: "home" },
      },
    });
    expect((await server.built.deps.centre.getContact(contactId))!.attributes).toEqual({
      orderNumber: "A-1",
      page: "home",
    });
  });
});
