/**
 * Issue 17: the official AWS SDK client (`@aws-sdk/client-connectparticipant` v3, SigV4-signed
 * with dummy credentials) talks to our participant service as to Amazon Connect's.
 */
import { randomBytes } from "node:crypto";
import {
  CompleteAttachmentUploadCommand,
  ConnectParticipantClient,
  CreateParticipantConnectionCommand,
  DescribeViewCommand,
  DisconnectParticipantCommand,
  GetAttachmentCommand,
  GetTranscriptCommand,
  SendEventCommand,
  SendMessageCommand,
  StartAttachmentUploadCommand,
  paginateGetTranscript,
  type Item,
} from "@aws-sdk/client-connectparticipant";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameClient } from "./support/client.js";
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

  /** The SDK's modelled error a command rejects with: its name and HTTP status. */
  const failure = (run: Promise<unknown>) =>
    run.then(
      () => null,
      (e: { name: string; $metadata: { httpStatusCode?: number } }) => [
        e.name,
        e.$metadata.httpStatusCode,
      ],
    );

  it("websocket items (read by a plain ws client) parse as SDK Items; an attachment goes up and comes back; DescribeView; the model's edge cases", async () => {
    const chat = await server.startChat();
    // WEBRTC_CONNECTION is in the model's ConnectionType: accepted beside the chat's types.
    const connection = await client.send(
      new CreateParticipantConnectionCommand({
        ParticipantToken: chat.participantToken,
        Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS", "WEBRTC_CONNECTION"],
        ConnectParticipant: true,
      }),
    );
    const ConnectionToken = connection.ConnectionCredentials!.ConnectionToken!;
    const socket = await FrameClient.subscribed(connection.Websocket!.Url!);

    const sent = await client.send(
      new SendMessageCommand({ ConnectionToken, ContentType: "text/markdown", Content: "**hi**" }),
    );
    const frame = await socket.waitFor(
      (f) => f.topic === "aws/chat" && String(f.content).includes(sent.Id!),
      { ms: 30_000 },
    );
    const item = JSON.parse(String(frame.content)) as Item;
    expect(item).toMatchObject({
      Id: sent.Id,
      AbsoluteTime: sent.AbsoluteTime,
      Type: "MESSAGE",
      ContentType: "text/markdown",
      Content: "**hi**",
      ParticipantRole: "CUSTOMER",
    });

    // An attachment: the MIME type in any case (the model's reading), uploaded to the signed URL
    // with the headers it names, completed, and downloaded byte for byte.
    const bytes = randomBytes(70_000);
    const started = await client.send(
      new StartAttachmentUploadCommand({
        ConnectionToken,
        ContentType: "Image/PNG",
        AttachmentSizeInBytes: bytes.length,
        AttachmentName: "receipt.png",
        ClientToken: "sdk-upload-1",
      }),
    );
    const upload = started.UploadMetadata!;
    const put = await fetch(upload.Url!, {
      method: "PUT",
      headers: upload.HeadersToInclude,
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    await client.send(
      new CompleteAttachmentUploadCommand({
        ConnectionToken,
        AttachmentIds: [started.AttachmentId!],
        ClientToken: "sdk-complete-1",
      }),
    );
    const got = await client.send(
      new GetAttachmentCommand({ ConnectionToken, AttachmentId: started.AttachmentId! }),
    );
    const download = await fetch(got.Url!);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const attachmentFrame = await socket.waitFor(
      (f) => f.topic === "aws/chat" && String(f.content).includes(started.AttachmentId!),
      { ms: 30_000 },
    );
    expect(JSON.parse(String(attachmentFrame.content))).toMatchObject({
      Type: "ATTACHMENT",
      Attachments: [{ AttachmentId: started.AttachmentId, AttachmentName: "receipt.png" }],
    });

    const view = await client.send(
      new DescribeViewCommand({ ConnectionToken, ViewToken: "order-details" }),
    );
    expect(view.View?.Id).toBe("order-details");
    expect(JSON.parse(view.View!.Content!.InputSchema!)).toMatchObject({ type: "object" });

    // StartPosition with Id and MostRecent (the model does not forbid it): the scan starts at Id.
    const fromId = await client.send(
      new GetTranscriptCommand({
        ConnectionToken,
        StartPosition: { Id: sent.Id, MostRecent: 5 },
        ScanDirection: "FORWARD",
        SortOrder: "ASCENDING",
      }),
    );
    expect(fromId.Transcript?.[0]?.Id).toBe(sent.Id);
    // An Id not in the transcript selects nothing (a filter; no not-found error in the model).
    const unknownId = await client.send(
      new GetTranscriptCommand({ ConnectionToken, StartPosition: { Id: "no-such-item" } }),
    );
    expect(unknownId.Transcript).toEqual([]);

    // Modelled errors, as the SDK names them.
    expect(
      await failure(
        client.send(
          new SendEventCommand({
            ConnectionToken,
            ContentType: "application/vnd.amazonaws.connect.event.connection.acknowledged",
          }),
        ),
      ),
    ).toEqual(["ValidationException", 400]);
    expect(
      await failure(
        client.send(new GetAttachmentCommand({ ConnectionToken, AttachmentId: "nope" })),
      ),
    ).toEqual(["ValidationException", 400]); // GetAttachment's model has no not-found error
    expect(
      await failure(
        client.send(new DescribeViewCommand({ ConnectionToken, ViewToken: "no-such-view" })),
      ),
    ).toEqual(["ResourceNotFoundException", 404]);
    expect(
      await failure(
        client.send(
          new SendMessageCommand({
            ConnectionToken: "not-a-token",
            ContentType: "text/plain",
            Content: "x",
          }),
        ),
      ),
    ).toEqual(["AccessDeniedException", 403]);
    socket.close();
  });
});
