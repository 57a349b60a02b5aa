export default function DashboardPage() {
  return <h1 className="p-6 text-2xl font-bold">DashboardPage</h1>;
}
