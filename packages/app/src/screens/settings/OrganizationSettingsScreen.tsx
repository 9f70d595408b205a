/** Placeholder while the screen is built. */
export default function OrganizationSettingsScreen() {
  return <h1>OrganizationSettingsScreen</h1>;
}
