/** Placeholder while the screen is built. */
export default function AccountScreen() {
  return <h1>AccountScreen</h1>;
}
