// A lean HTTP/1.1 client for the load generator's hot path (SendMessage): kept-alive sockets,
// one request at a time each, the request written as one text and the answer read by its
// Content-Length. At 5,000 msgs/s offered, Node's http client cost the generator ~77 % of its
// core, which it shares with PostgreSQL: the generator, not the server, set the ceiling.
import net from "node:net";

const HEAD_END = "\r\n\r\n";

/** One kept-alive connection; `usable` until it closes, fails or the server asks to close. */
class Connection {
  constructor(host, port) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setEncoding("latin1"); // one character a byte: Content-Length counts either
    this.usable = true;
    this.used = false;
    this.received = "";
    this.pending = null;
    this.socket.on("data", (chunk) => this.read(chunk));
    const fail = (error) => {
      this.usable = false;
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error ?? new Error("connection closed before the answer"));
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(null));
  }

  /** Sends `text` (a whole request); resolves with { status, body } once answered. */
  request(text) {
    this.used = true;
    this.received = "";
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(text);
    });
  }

  read(chunk) {
    if (!this.pending) return; // nothing asked: a server's stray bytes are not an answer
    this.received += chunk;
    const headEnd = this.received.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.received.slice(0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.usable = false;
      this.socket.destroy(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
      return;
    }
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.received.length < end) return;
    const body = Buffer.from(this.received.slice(headEnd + HEAD_END.length, end), "latin1");
    this.received = "";
    if (/\r\nconnection: *close/i.test(head)) this.usable = false;
    const { resolve } = this.pending;
    this.pending = null;
    resolve({ status: Number(head.slice(9, 12)), body: body.toString("utf8") });
  }
}

/** Per base URL: where it is and its idle connections. */
const origins = new Map();

function originOf(base) {
  let origin = origins.get(base);
  if (!origin) {
    const { hostname, port, host } = new URL(base);
    origin = { hostname, port: Number(port), host, idle: [] };
    origins.set(base, origin);
  }
  return origin;
}

/**
 * POST `body` (JSON text) to `base` + `path` with `headers`, over an idle kept-alive connection
 * or a new one; resolves with the status and the answer's text. A reused connection the server
 * closed meanwhile (its keep-alive timeout) is retried once on a new one when nothing came back.
 */
export async function post(base, path, headers, body) {
  const { hostname, port, host, idle } = originOf(base);
  let text = `POST ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  text += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  for (;;) {
    const connection = idle.pop() ?? new Connection(hostname, port);
    if (!connection.usable) continue;
    const reused = connection.used;
    try {
      const answer = await connection.request(text);
      if (connection.usable) idle.push(connection);
      return answer;
    } catch (error) {
      connection.socket.destroy();
      if (!reused || connection.received !== "") throw error;
    }
  }
}
