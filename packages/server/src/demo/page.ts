/**
 * The demo shop page at `/`: a customer's website embedding the widget exactly as any site
 * would — one script tag and one `<chat-widget jwt="…">` element.
 */

const escapeAttr = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const WIDGET_SCRIPT_PATH = "/widget/chat-widget.js";

const PRODUCTS = [
  { name: "Linen overshirt", price: "£48.00", colour: "#d9c8ae", tag: "New" },
  { name: "Merino crew jumper", price: "£65.00", colour: "#8aa39b", tag: "Bestseller" },
  { name: "Canvas tote bag", price: "£22.00", colour: "#e5a46b", tag: "" },
  { name: "Wool beanie", price: "£18.00", colour: "#5d6d8a", tag: "Back in stock" },
];

export function demoPage(jwt: string, orderNumber: string): string {
  const products = PRODUCTS.map(
    (p) => `
        <article class="product">
          <div class="swatch" style="background:${p.colour}">${p.tag ? `<span class="tag">${p.tag}</span>` : ""}</div>
          <h3>${p.name}</h3>
          <p class="price">${p.price}</p>
          <button type="button">Add to basket</button>
        </article>`,
  ).join("");
  return `<!doctype html>
<html lang="en-GB">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Demo Shop — chat widget demo</title>
    <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%23e56606'/%3E%3C/svg%3E" />
    <style>
      :root { --ink: #1f2328; --muted: #6b7280; --line: #e6e1da; --accent: #e56606; }
      * { box-sizing: border-box; }
      body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #faf8f5; }
      header { display: flex; align-items: center; justify-content: space-between; padding: 18px 40px; background: #fff; border-bottom: 1px solid var(--line); }
      .logo { font-weight: 800; font-size: 22px; letter-spacing: -0.5px; }
      .logo span { color: var(--accent); }
      nav a { margin-left: 24px; color: var(--ink); text-decoration: none; font-size: 15px; }
      nav a:hover { color: var(--accent); }
      .hero { padding: 56px 40px 32px; max-width: 1100px; margin: 0 auto; }
      .hero h1 { font-size: 40px; margin: 0 0 12px; letter-spacing: -1px; }
      .hero p { color: var(--muted); font-size: 18px; margin: 0; max-width: 640px; line-height: 1.5; }
      main { max-width: 1100px; margin: 0 auto; padding: 0 40px 80px; display: grid; grid-template-columns: 1fr 320px; gap: 32px; }
      .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 20px; }
      .product { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 14px; }
      .swatch { position: relative; height: 170px; border-radius: 10px; }
      .tag { position: absolute; top: 10px; left: 10px; background: #fff; border-radius: 999px; padding: 3px 10px; font-size: 12px; font-weight: 600; }
      .product h3 { font-size: 16px; margin: 14px 0 4px; }
      .price { margin: 0 0 12px; color: var(--muted); }
      .product button { width: 100%; padding: 10px; border: 0; border-radius: 8px; background: var(--ink); color: #fff; font-weight: 600; cursor: pointer; }
      aside .card { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 20px; margin-bottom: 20px; }
      aside h2 { font-size: 17px; margin: 0 0 12px; }
      .order-number { font-family: ui-monospace, monospace; font-weight: 700; color: var(--accent); }
      .steps { list-style: none; margin: 12px 0 0; padding: 0; }
      .steps li { padding: 6px 0 6px 22px; position: relative; color: var(--muted); font-size: 14px; }
      .steps li::before { content: ""; position: absolute; left: 0; top: 11px; width: 10px; height: 10px; border-radius: 50%; background: var(--line); }
      .steps li.done { color: var(--ink); }
      .steps li.done::before { background: var(--accent); }
      .help p { color: var(--muted); font-size: 14px; line-height: 1.5; margin: 0 0 8px; }
      .help a { color: var(--accent); }
      footer { text-align: center; color: var(--muted); font-size: 13px; padding: 24px; border-top: 1px solid var(--line); }
      @media (max-width: 800px) { main { grid-template-columns: 1fr; } header, .hero, main { padding-left: 20px; padding-right: 20px; } }
      @media (max-width: 600px) { header { flex-wrap: wrap; gap: 8px; } nav { display: flex; flex-wrap: wrap; gap: 6px 16px; } nav a { margin-left: 0; } .hero { padding-top: 32px; } .hero h1 { font-size: 30px; } }
    </style>
  </head>
  <body>
    <header>
      <div class="logo">Demo<span>Shop</span></div>
      <nav><a href="/">New in</a><a href="/">Clothing</a><a href="/">Accessories</a><a href="/">Basket (2)</a></nav>
    </header>
    <section class="hero">
      <h1>Autumn essentials</h1>
      <p>Soft layers, honest materials and free returns within 30 days. Questions about an order? Our assistant and advisors are one click away.</p>
    </section>
    <main>
      <section class="grid" aria-label="Products">${products}
      </section>
      <aside>
        <div class="card">
          <h2>Your latest order</h2>
          <div>Order <span class="order-number">${escapeAttr(orderNumber)}</span></div>
          <ul class="steps">
            <li class="done">Order placed</li>
            <li class="done">Dispatched</li>
            <li>Out for delivery</li>
            <li>Delivered</li>
          </ul>
        </div>
        <div class="card help">
          <h2>Need help?</h2>
          <p>Click the chat button in the bottom-right corner. The assistant already knows your order number.</p>
          <p>Advisors sign in to the <a href="/agent/">agent console</a> (demo account: <b>demo</b> / <b>demo</b>).</p>
        </div>
      </aside>
    </main>
    <footer>Demo Shop is a demonstration of the embeddable chat widget and its local contact centre.</footer>

    <!-- The widget, embedded exactly as a customer's website would: one script tag and one element. -->
    <script src="${WIDGET_SCRIPT_PATH}" defer></script>
    <chat-widget jwt="${escapeAttr(jwt)}"></chat-widget>
  </body>
</html>
`;
}
