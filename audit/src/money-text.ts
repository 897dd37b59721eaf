// Cents as the units a person reads: -1234567n -> "-12,345.67".

export function formatCents(cents: bigint | number): string {
  const value = BigInt(cents);
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  const units = (magnitude / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = (magnitude % 100n).toString().padStart(2, "0");
  return `${sign}${units}.${fraction}`;
}
