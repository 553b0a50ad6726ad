// A bot for the flow's answer state: `node examples/bot.mjs`, then set the state's
// bot.url to the address it prints. No dependencies; swap the answer for your LLM's.
import { createServer } from "node:http";

const server = createServer(async (req, res) => {
  if (req.method !== "POST") return res.writeHead(405).end();
  let body = "";
  for await (const chunk of req) body += chunk;
  const { message, attributes } = JSON.parse(body);

  if (/human|person/i.test(message.content)) {
    // JSON: whole messages (text, markdown or a template), then hand over to an advisor.
    res.writeHead(200, { "content-type": "application/json" });
    const messages = [{ contentType: "text/plain", content: "I'll find you a person." }];
    return res.end(JSON.stringify({ messages, handOver: true }));
  }
  // Server-Sent Events: the answer streamed as it is written, word by word.
  res.writeHead(200, { "content-type": "text/event-stream" });
  const order = attributes.orderNumber ?? "not known yet";
  const answer = `You asked: *${message.content}*. Your order number is ${order}.`;
  for (const word of answer.split(/(?<= )/)) {
    res.write(`data: ${word}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  res.end();
});
server.listen(Number(process.env.PORT ?? 8787), "127.0.0.1", () => {
  console.log(`bot listening on http://127.0.0.1:${server.address().port}/`);
});
