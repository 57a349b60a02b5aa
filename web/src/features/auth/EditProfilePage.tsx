export default function EditProfilePage() {
  return <h1 className="p-6 text-2xl font-bold">EditProfilePage</h1>;
}
