// The server bench's measures over chats opened with ./chats.mjs (see bench/server-latency.mjs).
import { isFlowMessage, isPicker, startChat } from "./chats.mjs";
import { spread } from "./percentiles.mjs";

const DRAIN_MS = 15_000;

/** (c) start-chat → first flow message, → list picker, in ms; one fresh chat per run. */
export async function startChatTimes(base, page) {
  const t0 = performance.now();
  const chat = await startChat(base);
  const customer = page.customer(chat);
  const first = customer.next(isFlowMessage).then(() => performance.now() - t0);
  const picker = customer.next(isPicker).then(() => performance.now() - t0);
  await customer.connect();
  const times = { first: await first, picker: await picker };
  await customer.leave();
  return times;
}

/**
 * (a) `messages` one at a time, after `warmUp` not counted: send → the advisor's session
 * delivers it, and send → acknowledged.
 */
export async function messageLatency({ customer, agent }, { messages, warmUp }) {
  const delivered = [];
  const acknowledged = [];
  for (let i = -warmUp; i < messages; i++) {
    const text = `latency ${i}`;
    const t0 = performance.now();
    const arrival = agent.next((item) => item.Content === text).then(() => performance.now() - t0);
    await customer.send(text);
    const ack = performance.now() - t0;
    const delivery = await arrival;
    if (i >= 0) {
      acknowledged.push(ack);
      delivered.push(delivery);
    }
  }
  return { delivered: spread(delivered), acknowledged: spread(acknowledged) };
}

/**
 * (b) every chat's customer sends as fast as acknowledged for `seconds`; counts the messages
 * committed and delivered to the advisors (waiting up to DRAIN_MS for the last), the delivery
 * latencies, this process's CPU share and the servers' CPU time per message.
 */
export async function throughputWindow(chats, { window, seconds, servers }) {
  const sentAt = new Map();
  const deliveries = [];
  let lastDelivery = 0;
  const stops = chats.map(({ agent }) =>
    agent.listen((item) => {
      const t = sentAt.get(item.Content);
      if (t === undefined) return;
      lastDelivery = performance.now();
      deliveries.push(lastDelivery - t);
    }),
  );
  let committed = 0;
  let lastAck = 0;
  const serverCpu = () => servers.reduce((sum, s) => sum + s.cpuSeconds(), 0);
  const serverCpuBefore = serverCpu();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    chats.map(async ({ customer }, c) => {
      for (let n = 0; performance.now() < end; n++) {
        const text = `load ${window}.${c}.${n}`;
        sentAt.set(text, performance.now());
        await customer.send(text);
        committed++;
        lastAck = performance.now();
      }
    }),
  );
  const drainEnd = performance.now() + DRAIN_MS;
  while (deliveries.length < committed && performance.now() < drainEnd) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { user, system } = process.cpuUsage(cpu);
  const serverCpuMs = (serverCpu() - serverCpuBefore) * 1000;
  stops.forEach((stop) => stop());
  return {
    committed: committed / ((lastAck - start) / 1000),
    delivered: deliveries.length / ((lastDelivery - start) / 1000),
    lost: committed - deliveries.length,
    latency: spread(deliveries),
    clientCpu: (user + system) / 1000 / (performance.now() - start),
    serverCpuPerMessage: serverCpuMs / committed,
  };
}

/** Runs `task(i)` for i < count, at most `parallel` at once; the results in order. */
export async function pool(count, parallel, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return results;
}
