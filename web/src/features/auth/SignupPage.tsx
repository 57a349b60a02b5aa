export default function SignupPage() {
  return <h1 className="p-6 text-2xl font-bold">SignupPage</h1>;
}
