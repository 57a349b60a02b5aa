export default function CreateCoursePage() {
  return <h1 className="p-6 text-2xl font-bold">CreateCoursePage</h1>;
}
