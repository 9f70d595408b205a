/** Placeholder while the screen is built. */
export default function SearchScreen() {
  return <h1>SearchScreen</h1>;
}
