/** Placeholder while the screen is built. */
export default function CollectionScreen() {
  return <h1>CollectionScreen</h1>;
}
