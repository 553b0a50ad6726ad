// The page side of the chatjs compatibility test: a customer's chat through the real
// amazon-connect-chatjs (window.connect), configured only with the endpoint override.
// Every session callback is recorded in window.chat.events for the test to read.
(function () {
  const chat = {
    events: [],
    session: null,
    details: null,
  };
  window.chat = chat;

  const record = (kind) => (event) => {
    chat.events.push({ kind, data: event && event.data !== undefined ? event.data : null });
  };

  /**
   * Start a chat as the widget does, then connect chatjs to the participant service; with
   * `transcript`, onTranscriptUpdated is subscribed before connecting (its updates recorded as
   * "transcriptUpdated").
   */
  chat.start = async function (serverOrigin, startChatBody, transcript) {
    const response = await fetch(serverOrigin + "/gateway/start-chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(startChatBody),
    });
    if (!response.ok) throw new Error("start-chat failed: " + response.status);
    const details = (await response.json()).data.startChatResult;
    chat.details = details;

    window.connect.ChatSession.setGlobalConfig({
      region: "eu-west-2",
      endpoint: serverOrigin,
      features: { messageReceipts: { shouldSendMessageReceipts: true, throttleTime: 5000 } },
    });
    const session = window.connect.ChatSession.create({
      chatDetails: {
        ContactId: details.ContactId,
        ParticipantId: details.ParticipantId,
        ParticipantToken: details.ParticipantToken,
      },
      type: "CUSTOMER",
      options: { region: "eu-west-2" },
      disableCSM: true,
    });
    chat.session = session;
    session.onMessage(record("message"));
    session.onTyping(record("typing"));
    session.onReadReceipt(record("readReceipt"));
    session.onDeliveredReceipt(record("deliveredReceipt"));
    session.onEnded(record("ended"));
    session.onConnectionEstablished(record("connectionEstablished"));
    session.onConnectionBroken(record("connectionBroken"));
    session.onConnectionLost(record("connectionLost"));
    session.onDeepHeartbeatSuccess(record("deepHeartbeatSuccess"));
    if (transcript) session.onTranscriptUpdated(record("transcriptUpdated"));
    const result = await session.connect();
    return { details, connectSuccess: result.connectSuccess };
  };

  /** chatjs sendAttachment with a File made in the page. */
  chat.sendFile = async function (name, type, text) {
    const file = new File([text], name, { type });
    await chat.session.sendAttachment({ attachment: file });
  };

  /** chatjs downloadAttachment: the Blob's text and type. */
  chat.download = async function (attachmentId) {
    const blob = await chat.session.downloadAttachment({ attachmentId });
    return { text: await blob.text(), size: blob.size };
  };
})();
