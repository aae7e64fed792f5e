// What the three tools do, shared by both servers (with-mcp-gen.ts and with-sdk.ts), so the
// two files differ only in their MCP code, and behave the same by construction.

const BOOKS = ["Dune", "Emma", "Middlemarch", "Ulysses", "Walden"];

/** The titles that contain `query` (case-insensitive): the first `limit`, and how many matched. */
export function findBooks(query: string, limit: number): { titles: string[]; total: number } {
  const found = BOOKS.filter((title) => title.toLowerCase().includes(query.toLowerCase()));
  return { titles: found.slice(0, limit), total: found.length };
}

export interface PizzaOrder {
  size: "small" | "medium" | "large";
  toppings?: string[] | undefined;
  delivery?: { street: string; floor?: number | undefined } | undefined;
}

/** One sentence for an order: "large pizza with basil, delivered to 12 Main St (floor 3)". */
export function describeOrder({ size, toppings = [], delivery }: PizzaOrder): string {
  const pizza = toppings.length > 0 ? `${size} pizza with ${toppings.join(", ")}` : `${size} pizza`;
  if (!delivery) return `${pizza}, to pick up`;
  const floor = delivery.floor === undefined ? "" : ` (floor ${delivery.floor})`;
  return `${pizza}, delivered to ${delivery.street}${floor}`;
}
