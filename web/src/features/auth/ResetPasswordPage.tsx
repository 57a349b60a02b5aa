export default function ResetPasswordPage() {
  return <h1 className="p-6 text-2xl font-bold">ResetPasswordPage</h1>;
}
