/** A phone number as written (`+91 98765 43210`, `(022) 2345-6789`) as a tel: address: digits, and a leading plus. */
export const telHref = (phone: string) => `tel:${phone.startsWith('+') ? '+' : ''}${phone.replace(/[^0-9]/g, '')}`;
