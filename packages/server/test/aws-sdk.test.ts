/**
 * Issue 17: the official AWS SDK client (`@aws-sdk/client-connectparticipant` v3, SigV4-signed
 * with dummy credentials) talks to our participant service as to Amazon Connect's.
 */
import {
  ConnectParticipantClient,
  CreateParticipantConnectionCommand,
  DisconnectParticipantCommand,
  GetTranscriptCommand,
  SendEventCommand,
  SendMessageCommand,
  paginateGetTranscript,
  type Item,
} from "@aws-sdk/client-connectparticipant";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./support/server.js";

describe("the AWS SDK's ConnectParticipant client against our participant service", () => {
  let server: TestServer;
  let client: ConnectParticipantClient;
  beforeAll(async () => {
    server = await startServer("pglite", { env: { RATE_LIMIT_BURST: "1000" } });
    client = new ConnectParticipantClient({
      endpoint: server.url,
      region: "eu-west-2",
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
    });
  }, 120_000);
  afterAll(async () => {
    client?.destroy();
    await server?.close();
  });

  it("connects, sends with a ClientToken (stored once), pages the transcript with the SDK's paginator, and disconnects", async () => {
    const chat = await server.startChat();
    const connection = await client.send(
      new CreateParticipantConnectionCommand({
        ParticipantToken: chat.participantToken,
        Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
        ConnectParticipant: true,
      }),
    );
    const ConnectionToken = connection.ConnectionCredentials!.ConnectionToken!;
    expect(connection.Websocket?.Url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);

    const sent: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const r = await client.send(
        new SendMessageCommand({
          ConnectionToken,
          ContentType: "text/plain",
          Content: `m-${i}`,
          ClientToken: `token-${i}`,
        }),
      );
      sent.push(r.Id!);
    }
    const again = await client.send(
      new SendMessageCommand({
        ConnectionToken,
        ContentType: "text/plain",
        Content: "m-12",
        ClientToken: "token-12",
      }),
    );
    expect(again.Id).toBe(sent[11]); // the same ClientToken is the same message
    await client.send(
      new SendEventCommand({
        ConnectionToken,
        ContentType: "application/vnd.amazonaws.connect.event.typing",
      }),
    );

    const items: Item[] = [];
    for await (const page of paginateGetTranscript(
      { client, pageSize: 5 },
      { ConnectionToken, ScanDirection: "FORWARD", SortOrder: "ASCENDING" },
    )) {
      items.push(...(page.Transcript ?? []));
    }
    const messages = items.filter((i) => i.Type === "MESSAGE").map((i) => i.Content);
    expect(messages).toEqual(Array.from({ length: 12 }, (_, i) => `m-${i + 1}`));

    const empty = await client.send(
      new GetTranscriptCommand({ ConnectionToken, MaxResults: 0, ScanDirection: "FORWARD" }),
    );
    expect(empty.Transcript).toEqual([]);

    await client.send(new DisconnectParticipantCommand({ ConnectionToken }));
    const refused = await client
      .send(new SendMessageCommand({ ConnectionToken, ContentType: "text/plain", Content: "x" }))
      .then(
        () => null,
        (e: { name: string; $metadata: { httpStatusCode?: number } }) => e,
      );
    expect(refused?.name).toBe("AccessDeniedException");
    expect(refused?.$metadata.httpStatusCode).toBe(403);
  });

  it("reads a message's receipts from the message's own MessageMetadata, as the SDK model has them", async () => {
    const chat = await server.startChat();
    const connection = await client.send(
      new CreateParticipantConnectionCommand({
        ParticipantToken: chat.participantToken,
        Type: ["CONNECTION_CREDENTIALS"],
        ConnectParticipant: true,
      }),
    );
    const ConnectionToken = connection.ConnectionCredentials!.ConnectionToken!;
    const sent = await client.send(
      new SendMessageCommand({ ConnectionToken, ContentType: "text/plain", Content: "Hello" }),
    );
    const read = await client.send(
      new SendEventCommand({
        ConnectionToken,
        ContentType: "application/vnd.amazonaws.connect.event.message.read",
        Content: JSON.stringify({ messageId: sent.Id }),
      }),
    );
    const transcript = await client.send(
      new GetTranscriptCommand({ ConnectionToken, MaxResults: 100 }),
    );
    const message = transcript.Transcript?.find((i) => i.Id === sent.Id);
    expect(message?.MessageMetadata?.MessageId).toBe(sent.Id);
    expect(message?.MessageMetadata?.Receipts).toEqual([
      {
        RecipientParticipantId: chat.participantId,
        ReadTimestamp: read.AbsoluteTime,
      },
    ]);
  });
});
