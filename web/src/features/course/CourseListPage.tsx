export default function CourseListPage() {
  return <h1 className="p-6 text-2xl font-bold">CourseListPage</h1>;
}
