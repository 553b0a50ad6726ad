/**
 * Issue 60 (2), internal notes never reach the visitor: with a note written on a live chat,
 * the customer's side — raw websocket frames and GetTranscript, our chat client, the real
 * amazon-connect-chatjs 5.0.0 — and the AGENT participant's transcript carry no trace of it,
 * though a message sent after the note reaches every one of them. Nor does any stored item.
 */
import { randomBytes } from "node:crypto";
import {
  ContentType,
  NotesApiPath,
  ParticipantPath,
  agentContactPath,
  type Item,
  type Note,
  type NotesResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSession } from "../client/support/sessions.js";
import { loadChatjs } from "../support/chatjs.js";
import { call, connectParticipant, FrameClient } from "../support/client.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { heldBy, signIn, startFeatureServer, widgetCustomer, type Advisor } from "./helpers.js";

/* eslint-disable @typescript-eslint/no-explicit-any */

const BOUND = { timeout: 15_000 };

describe.each(ENGINES)("internal notes stay out of the participant path (%s)", (engine) => {
  let server: TestServer;
  let advisor: Advisor;
  let chatjs: any;

  beforeAll(async () => {
    server = await startFeatureServer(engine);
    advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    chatjs = await loadChatjs();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a note's text appears nowhere the customer or a participant can read", async () => {
    const widget = await widgetCustomer(server, null);
    await widget.say("Talk to an advisor");
    const { accepted } = await heldBy(advisor, widget);
    const [customerRow] = await server.built.deps.db.query<{ participant_id: string }>(
      "SELECT participant_id FROM participants WHERE contact_id = $1 AND role = 'CUSTOMER'",
      [widget.contactId],
    );
    const chat = {
      ContactId: widget.contactId,
      ParticipantId: customerRow!.participant_id,
      ParticipantToken: widget.participantToken,
    };

    // Our chat client and chatjs, each a CUSTOMER session of the same chat.
    const ours = await customerSession(server.url, chat);
    expect((await ours.session.connect()).connectSuccess).toBe(true);
    // chatjs keeps one participant client per region, made with the first endpoint it was
    // given: each server of this file gets a region of its own.
    const region = engine === "pglite" ? "us-west-2" : "eu-central-1";
    chatjs.ChatSession.setGlobalConfig({
      region,
      endpoint: server.url,
      loggerConfig: { level: "ERROR" },
    });
    const theirs = chatjs.ChatSession.create({
      chatDetails: chat,
      type: "CUSTOMER",
      options: { region },
      disableCSM: true,
    });
    const chatjsSeen: unknown[] = [];
    theirs.onMessage((e: any) => chatjsSeen.push(e.data));
    theirs.onTyping((e: any) => chatjsSeen.push(e.data));
    expect((await theirs.connect()).connectSuccess).toBe(true);

    // The advisor's note, with a mark found nowhere else.
    const mark = `note-mark-${randomBytes(8).toString("hex")}`;
    const written = await advisor.request<Note>(
      agentContactPath(NotesApiPath.Notes, widget.contactId),
      { body: { Body: `Visitor seems upset, refund approved ${mark}` } },
    );
    expect(written.status).toBe(200);

    // A message after it reaches every customer client: the note would have too.
    const agent = await connectParticipant(server.url, accepted.ParticipantToken);
    const agentSocket = await FrameClient.subscribed(agent.websocketUrl);
    const sent = await call(server.url, ParticipantPath.SendMessage, agent.connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: "after the note",
    });
    expect(sent.status).toBe(200);
    const after = (i: Item) => i.Content === "after the note";
    await widget.waitFor(after, 15_000);
    await ours.waitForItem(after, "message", 15_000);
    await expect
      .poll(() => chatjsSeen.some((m: any) => m?.Content === "after the note"), BOUND)
      .toBe(true);
    await agentSocket.waitFor(() => agentSocket.items().some(after), { ms: 15_000 });

    const transcriptOf = async (token: string) => {
      const r = await call(server.url, ParticipantPath.GetTranscript, token, {
        MaxResults: 100,
        ScanDirection: "FORWARD",
        SortOrder: "ASCENDING",
      });
      expect(r.status).toBe(200);
      return JSON.stringify(r.body);
    };
    const everywhere = [
      widget.socket.raw.join("\n"),
      await transcriptOf(widget.connectionToken),
      JSON.stringify(ours.events),
      JSON.stringify((await ours.session.getTranscript({ maxResults: 100 })).data),
      JSON.stringify(chatjsSeen),
      JSON.stringify(
        (await theirs.getTranscript({ maxResults: 100, sortOrder: "ASCENDING" })).data,
      ),
      agentSocket.raw.join("\n"),
      await transcriptOf(agent.connectionToken),
    ];
    for (const [i, text] of everywhere.entries()) {
      expect(text, `source ${i}`).toContain("after the note");
      expect(text, `source ${i}`).not.toContain(mark);
    }
    const [stored] = await server.built.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM items WHERE item::text LIKE $1",
      [`%${mark}%`],
    );
    expect(Number(stored!.n)).toBe(0);

    // The note itself is there, for the advisor.
    const notes = await advisor.request<NotesResponse>(
      agentContactPath(NotesApiPath.Notes, widget.contactId),
      { method: "GET" },
    );
    expect(notes.body.Notes.map((n) => n.Body)).toEqual([
      `Visitor seems upset, refund approved ${mark}`,
    ]);

    widget.close();
    agentSocket.socket.close();
    await ours.session.disconnectParticipant().catch(() => {});
    await theirs.disconnectParticipant().catch(() => {});
  });
});
