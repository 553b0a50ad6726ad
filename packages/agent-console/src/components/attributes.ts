/** The contact attributes the console reads: the reported order number first. */
export const ORDER_NUMBER_KEY = "orderNumber";

export function orderNumberOf(attributes: Record<string, string>): string | null {
  const value = attributes[ORDER_NUMBER_KEY];
  return value && value.trim() ? value : null;
}
