import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbContactCentre } from "../src/contact-centre/contact-centre.js";
import type { Contact } from "../src/contact-centre/types.js";
import { ENGINES } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

describe.each(ENGINES)("the contact centre (%s)", (engine) => {
  let server: TestServer;
  let centre: DbContactCentre;
  const seen: { contact: Contact; item: Item }[] = [];

  beforeAll(async () => {
    server = await startServer(engine);
    centre = server.built.deps.centre as DbContactCentre;
    centre.onItemCommitted((contact, item) => {
      seen.push({ contact, item });
    });
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  const itemsOf = (contactId: string) =>
    seen.filter((s) => s.contact.contactId === contactId).map((s) => s.item);

  it("startChat creates an active contact whose customer joined; text/plain is always supported", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: ["text/markdown"],
      attributes: { orderNumber: "42" },
    });
    const contact = await centre.getContact(chat.contactId);
    expect(contact).toMatchObject({
      status: "active",
      initialContactId: chat.contactId,
      attributes: { orderNumber: "42" },
      endedAt: null,
    });
    expect(contact?.supportedContentTypes.sort()).toEqual(["text/markdown", "text/plain"]);
    const participants = await centre.getParticipants(chat.contactId);
    expect(participants).toEqual([
      {
        participantId: chat.participantId,
        contactId: chat.contactId,
        role: "CUSTOMER",
        displayName: "Ann",
        connectedAt: null,
        leftAt: null,
      },
    ]);
    await centre.idle();
    expect(itemsOf(chat.contactId).map((i) => [i.ContentType, i.ParticipantRole])).toEqual([
      [ContentType.PARTICIPANT_JOINED, "CUSTOMER"],
    ]);
  });

  it("reports every committed item to listeners once, in commit order, but not typing", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    const bot = await centre.addParticipant(chat.contactId, "SYSTEM", "BOT");
    await centre.postMessage(chat.contactId, bot.participantId, {
      contentType: ContentType.INTERACTIVE_MESSAGE,
      content: '{"templateType":"ListPicker"}',
    });
    await centre.postEvent(chat.contactId, chat.participantId, { contentType: ContentType.TYPING });
    await centre.postMessage(chat.contactId, chat.participantId, {
      contentType: "text/plain",
      content: "Track my order",
    });
    await centre.idle();
    expect(itemsOf(chat.contactId).map((i) => i.Content ?? i.ContentType)).toEqual([
      ContentType.PARTICIPANT_JOINED,
      ContentType.PARTICIPANT_JOINED,
      '{"templateType":"ListPicker"}',
      "Track my order",
    ]);
    expect(itemsOf(chat.contactId)[2]).toMatchObject({
      ParticipantRole: "SYSTEM",
      DisplayName: "BOT",
    });
  });

  it("updateAttributes merges into the contact's attributes", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
      attributes: { a: "1" },
    });
    const updated = await centre.updateAttributes(chat.contactId, { orderNumber: "A-1" }, "report");
    expect(updated.attributes).toEqual({ a: "1", orderNumber: "A-1" });
    await expect(centre.updateAttributes("missing", {}, "flow")).rejects.toMatchObject({
      type: "ResourceNotFoundException",
    });
  });

  it("endContact records participant.left for the customer and agent (not the bot), then chat.ended; a second end does nothing", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    await centre.addParticipant(chat.contactId, "SYSTEM", "BOT");
    await centre.addParticipant(chat.contactId, "AGENT", "Sam");
    await centre.endContact(chat.contactId);
    await centre.endContact(chat.contactId);
    await centre.idle();
    const tail = itemsOf(chat.contactId)
      .slice(3)
      .map((i) => [i.ContentType, i.ParticipantRole]);
    expect(tail).toEqual([
      [ContentType.PARTICIPANT_LEFT, "CUSTOMER"],
      [ContentType.PARTICIPANT_LEFT, "AGENT"],
      [ContentType.CHAT_ENDED, undefined],
    ]);
    const ended = seen.find(
      (s) =>
        s.item.ContentType === ContentType.CHAT_ENDED && s.contact.contactId === chat.contactId,
    );
    expect(ended?.contact.status).toBe("ended");
    const contact = await centre.getContact(chat.contactId);
    expect(contact?.status).toBe("ended");
    expect((await centre.getParticipants(chat.contactId)).every((p) => p.leftAt !== null)).toBe(
      true,
    );
    await expect(centre.addParticipant(chat.contactId, "AGENT", "Late")).rejects.toMatchObject({
      type: "AccessDeniedException",
    });
    await expect(
      centre.postMessage(chat.contactId, chat.participantId, {
        contentType: "text/plain",
        content: "x",
      }),
    ).rejects.toMatchObject({ type: "AccessDeniedException" });
  });

  it("issueConnectionToken gives an agent a 1-day connection token for the participant service", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    const agent = await centre.addParticipant(chat.contactId, "AGENT", "Sam");
    const grant = await centre.issueConnectionToken(chat.contactId, agent.participantId);
    expect(Date.parse(grant.expiry) - Date.now()).toBeGreaterThan(86_000_000);
    const r = await fetch(`${server.url}/participant/message`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-amz-bearer": grant.connectionToken },
      body: JSON.stringify({ ContentType: "text/plain", Content: "Hi, I'm Sam" }),
    });
    expect(r.status).toBe(200);
    await expect(centre.issueConnectionToken(chat.contactId, "someone-else")).rejects.toMatchObject(
      { type: "AccessDeniedException" },
    );
  });

  it("createConnection issues what is asked, records the first connection, and nothing to a participant who left", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    const tokenRows = async () => {
      const [row] = await server.built.deps.db.query<{ w: unknown; c: unknown }>(
        `SELECT (SELECT count(*) FROM websocket_tokens WHERE participant_id = $1) AS w,
                (SELECT count(*) FROM connection_tokens WHERE participant_id = $1) AS c`,
        [chat.participantId],
      );
      return [Number(row!.w), Number(row!.c)];
    };
    const none = await centre.createConnection(chat.contactId, chat.participantId, {
      websocket: false,
      credentials: false,
      connect: false,
    });
    expect(none).toEqual({ at: expect.any(String) });
    expect((await centre.getParticipants(chat.contactId))[0]!.connectedAt).toBeNull();

    const grant = await centre.createConnection(chat.contactId, chat.participantId, {
      websocket: true,
      credentials: true,
      connect: true,
    });
    expect(Date.parse(grant.websocket!.expiry) - Date.now()).toBeLessThanOrEqual(100_000);
    expect(Date.parse(grant.credentials!.expiry) - Date.now()).toBeGreaterThan(86_000_000);
    expect(await tokenRows()).toEqual([1, 1]);
    const [customer] = await centre.getParticipants(chat.contactId);
    expect(customer!.connectedAt).toBe(grant.at);

    await centre.disconnectParticipant(chat.contactId, chat.participantId);
    await expect(
      centre.createConnection(chat.contactId, chat.participantId, {
        websocket: true,
        credentials: true,
        connect: true,
      }),
    ).rejects.toMatchObject({ type: "AccessDeniedException" });
    expect(await tokenRows()).toEqual([1, 1]);
  });

  it("createConnection writes nothing for another contact's id or an ended chat", async () => {
    const start = () =>
      centre.startChat({
        instanceId: "i",
        contactFlowId: "f",
        displayName: "Ann",
        supportedContentTypes: [],
      });
    const [chat, other] = await Promise.all([start(), start()]);
    const all = { websocket: true, credentials: true, connect: true };
    const written = async () => {
      const [row] = await server.built.deps.db.query<{ n: unknown; connected: unknown }>(
        `SELECT (SELECT count(*) FROM websocket_tokens WHERE participant_id = $1)
              + (SELECT count(*) FROM connection_tokens WHERE participant_id = $1) AS n,
                (SELECT connected_at FROM participants WHERE participant_id = $1) AS connected`,
        [chat.participantId],
      );
      return [Number(row!.n), row!.connected];
    };
    await expect(
      centre.createConnection(other.contactId, chat.participantId, all),
    ).rejects.toMatchObject({ type: "AccessDeniedException" });
    expect(await written()).toEqual([0, null]);
    await centre.endContact(chat.contactId);
    await expect(
      centre.createConnection(chat.contactId, chat.participantId, all),
    ).rejects.toMatchObject({ type: "AccessDeniedException" });
    expect(await written()).toEqual([0, null]);
  });

  it("keeps concurrent messages of one contact in one gap-free order", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        centre.postMessage(chat.contactId, chat.participantId, {
          contentType: "text/plain",
          content: `c${i}`,
        }),
      ),
    );
    const rows = await server.built.deps.db.query<{ seq: number }>(
      "SELECT seq FROM items WHERE contact_id = $1 ORDER BY seq",
      [chat.contactId],
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it("refuses a participant id that joined already (409), writing nothing, whatever its token", async () => {
    const chat = await centre.startChat({
      instanceId: "i",
      contactFlowId: "f",
      displayName: "Ann",
      supportedContentTypes: [],
    });
    const options = { participantId: `advisor-of-${chat.contactId}`, participantToken: "t-1" };
    await centre.addParticipant(chat.contactId, "AGENT", "Sam", options);
    for (const token of ["t-1", "t-2"]) {
      await expect(
        centre.addParticipant(chat.contactId, "AGENT", "Sam again", {
          ...options,
          participantToken: token,
        }),
      ).rejects.toMatchObject({ type: "ConflictException" });
    }
    // Ann and Sam may join within the same millisecond, when the list orders them by their
    // ids: which two are there is the point here, not their order.
    const participants = await centre.getParticipants(chat.contactId);
    expect(participants.map((p) => p.displayName).sort()).toEqual(["Ann", "Sam"]);
    await centre.idle();
    const joined = itemsOf(chat.contactId).filter(
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED,
    );
    expect(joined).toHaveLength(2);
  });
});
