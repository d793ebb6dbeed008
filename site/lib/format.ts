/** Display rules of spec §9: durations, prices, start dates and dates. */
export type Where = 'home' | 'list' | 'detail';

export function formatDuration(months: number | null | undefined, where: Where): string {
  if (months && months > 0) return `${months} month${months === 1 ? '' : 's'}`;
  return where === 'home' ? 'Duration not specified' : where === 'list' ? 'Contact for details' : 'Not specified';
}

/** 'R' plus amount, else tuitionFee, else 'Contact for pricing'. Amount shown like R6,500. */
export function formatPrice(price: string | number | null | undefined, tuitionFee?: string | null): string {
  const n = price == null || price === '' ? NaN : Number(price);
  if (Number.isFinite(n) && n > 0) return `R${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  if (tuitionFee) return tuitionFee;
  return 'Contact for pricing';
}

export function formatStartDate(startDate: string | null | undefined, where: Where): string {
  if (startDate && startDate.trim()) return startDate;
  return where === 'detail' ? 'Flexible' : 'Contact for dates';
}

/** Long en-US date ('November 21, 2026'), spec §9. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}


export const levelLabel = (level: string | null | undefined) => {
  const l = level || 'certificate';
  return l.charAt(0).toUpperCase() + l.slice(1);
};
