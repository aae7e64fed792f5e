// The root layout Next.js requires beside any route; this app serves no page.
export default function Layout({ children }: { children: unknown }) {
  return children;
}
