export default function ProfilePage() {
  return <h1 className="p-6 text-2xl font-bold">ProfilePage</h1>;
}
