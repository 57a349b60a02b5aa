export default function LoginPage() {
  return <h1 className="p-6 text-2xl font-bold">LoginPage</h1>;
}
