export default function ChangePasswordPage() {
  return <h1 className="p-6 text-2xl font-bold">ChangePasswordPage</h1>;
}
