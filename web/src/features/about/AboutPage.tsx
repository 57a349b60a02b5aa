export default function AboutPage() {
  return <h1 className="p-6 text-2xl font-bold">AboutPage</h1>;
}
