/** The contact's attributes, the order number the visitor reported shown first and large. */
import { ORDER_NUMBER_KEY, orderNumberOf } from "./attributes.js";

export function AttributesPanel({ attributes }: { attributes: Record<string, string> }) {
  const order = orderNumberOf(attributes);
  const rest = Object.entries(attributes)
    .filter(([k]) => k !== ORDER_NUMBER_KEY)
    .sort(([a], [b]) => a.localeCompare(b));
  return (
    <aside className="attributes" aria-label="Contact attributes">
      <div className="order-number">
        <span className="label">Order number</span>
        <span className="value" data-testid="order-number">
          {order ?? "not reported"}
        </span>
      </div>
      {rest.length > 0 && (
        <dl>
          {rest.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
    </aside>
  );
}
