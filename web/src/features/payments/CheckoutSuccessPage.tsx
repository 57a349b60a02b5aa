export default function CheckoutSuccessPage() {
  return <h1 className="p-6 text-2xl font-bold">CheckoutSuccessPage</h1>;
}
