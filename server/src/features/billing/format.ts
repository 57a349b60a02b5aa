/** How documents and mails write money and dates: "₹1,234.50", "25 Nov 2026" (India's calendar). */

export const rupees = (paise: number) => `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const indiaDate = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric' });
export const formatIndiaDate = (date: Date) => indiaDate.format(date);
