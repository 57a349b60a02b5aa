export default function CheckoutPage() {
  return <h1 className="p-6 text-2xl font-bold">CheckoutPage</h1>;
}
