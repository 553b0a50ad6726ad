import type { View } from "@chat-widget/protocol";

/** The views DescribeView serves, by view token (step-by-step guides, docs/protocol.md §6.7). */
export const VIEWS: Readonly<Record<string, View>> = {
  "order-details": {
    Id: "order-details",
    Arn: "arn:aws:connect:eu-west-2:000000000000:instance/demo-instance/view/order-details",
    Name: "Order details",
    Version: 1,
    Content: {
      InputSchema: JSON.stringify({
        type: "object",
        properties: { orderNumber: { type: "string" } },
        required: ["orderNumber"],
      }),
      Template: JSON.stringify({
        Head: { Title: "Order details" },
        Body: [
          { _id: "Heading", Type: "Heading", Props: { Content: "Your order" } },
          { _id: "Order", Type: "Text", Props: { Content: { _path: "orderNumber" } } },
          { _id: "Confirm", Type: "Button", Props: { Action: "Confirm", Label: "Confirm" } },
          { _id: "Cancel", Type: "Button", Props: { Action: "Cancel", Label: "Cancel" } },
        ],
      }),
      Actions: ["Confirm", "Cancel"],
    },
  },
};
