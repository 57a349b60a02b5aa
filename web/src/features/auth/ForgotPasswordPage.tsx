export default function ForgotPasswordPage() {
  return <h1 className="p-6 text-2xl font-bold">ForgotPasswordPage</h1>;
}
