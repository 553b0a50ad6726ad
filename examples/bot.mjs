// A bot for the flow's answer state: `node examples/bot.mjs`, then set the state's
// bot.url to the address it prints. No dependencies; swap the answer for your LLM's.
import { createServer } from "node:http";

/** One Server-Sent Event: each line of the text a data line. */
const event = (text) => `${text.replace(/^/gm, "data: ")}\n\n`;

const server = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  let request;
  try {
    request = JSON.parse(body); // { requestId, contactId, message, attributes }
  } catch {
    return res.writeHead(400).end();
  }
  const { message, attributes = {} } = request;
  if (/human|person/i.test(message.content)) {
    // JSON: whole messages (text, markdown or a template), then hand over to an advisor.
    res.writeHead(200, { "content-type": "application/json" });
    const messages = [{ contentType: "text/plain", content: "I'll find you a person." }];
    return res.end(JSON.stringify({ messages, handOver: true }));
  }
  // Server-Sent Events: the answer streamed as it is written, word by word.
  res.writeHead(200, { "content-type": "text/event-stream" });
  const order = attributes.orderNumber ?? "not known yet";
  for (const word of `Your order number is ${order}. How else can I help?`.split(/(?<= )/)) {
    res.write(event(word));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  res.end();
});
server.listen(Number(process.env.PORT ?? 8787), "127.0.0.1", () => {
  console.log(`bot listening on http://127.0.0.1:${server.address().port}/`);
});
