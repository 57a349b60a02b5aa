export default function LecturePage() {
  return <h1 className="p-6 text-2xl font-bold">LecturePage</h1>;
}
