/** Placeholder while the screen is built. */
export default function PeopleScreen() {
  return <h1>PeopleScreen</h1>;
}
