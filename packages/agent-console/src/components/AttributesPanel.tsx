/**
 * The contact's attributes, the order number the visitor reported shown first and large. Those
 * of the verified visitor jwt are marked "Verified" (issue 57); the others (the page's, the
 * visitor's report, the flow's saved answers) are what the visitor said, unproved.
 */
import { ORDER_NUMBER_ATTRIBUTE, type AttributeSource } from "@chat-widget/protocol";
import { orderNumberOf } from "./attributes.js";

export interface AttributesPanelProps {
  attributes: Record<string, string>;
  /** Each attribute's source; a key without one is not verified. */
  sources?: Record<string, AttributeSource>;
}

/** The mark of a verified value: text, so a screen reader says it too. */
export const Verified = () => (
  <>
    {" "}
    <span className="verified">Verified</span>
  </>
);

export function AttributesPanel({ attributes, sources = {} }: AttributesPanelProps) {
  const order = orderNumberOf(attributes);
  const verified = (key: string) => sources[key] === "jwt";
  const rest = Object.entries(attributes)
    .filter(([k]) => k !== ORDER_NUMBER_ATTRIBUTE)
    .sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="contact-attributes">
      <div className="order-number">
        <span className="label">Order number</span>
        <span className="value" data-testid="order-number">
          {order ?? "not reported"}
        </span>
        {order && verified(ORDER_NUMBER_ATTRIBUTE) && <Verified />}
      </div>
      {rest.length > 0 && (
        <dl>
          {rest.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                {v}
                {verified(k) && <Verified />}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
