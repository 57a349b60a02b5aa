export default function CourseDescriptionPage() {
  return <h1 className="p-6 text-2xl font-bold">CourseDescriptionPage</h1>;
}
