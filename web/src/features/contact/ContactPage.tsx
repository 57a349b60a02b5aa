export default function ContactPage() {
  return <h1 className="p-6 text-2xl font-bold">ContactPage</h1>;
}
