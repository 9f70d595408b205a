/** Placeholder while the screen is built. */
export default function SpaceScreen() {
  return <h1>SpaceScreen</h1>;
}
