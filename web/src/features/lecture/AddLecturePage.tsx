export default function AddLecturePage() {
  return <h1 className="p-6 text-2xl font-bold">AddLecturePage</h1>;
}
