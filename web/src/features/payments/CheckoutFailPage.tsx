export default function CheckoutFailPage() {
  return <h1 className="p-6 text-2xl font-bold">CheckoutFailPage</h1>;
}
