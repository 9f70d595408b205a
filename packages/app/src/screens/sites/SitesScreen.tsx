/** Placeholder while the screen is built. */
export default function SitesScreen() {
  return <h1>SitesScreen</h1>;
}
