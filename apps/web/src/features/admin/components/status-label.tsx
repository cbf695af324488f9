import {
  STATUS_DESCRIPTIONS,
  isAccountStatus,
  normalizeStatus,
} from '@dealerpass/domain/account/status';

/** An account status as the dealers' pages word it (000 §2), with its detail (complimentary). */
export function statusText(status: string, details?: string | null): string {
  const normal = normalizeStatus(status);
  const main = isAccountStatus(normal) ? STATUS_DESCRIPTIONS[normal] : status;
  return details ? `${main} (${details})` : main;
}

export function StatusLabel({ status, details }: { status: string; details?: string | null }) {
  const tone = normalizeStatus(status).replace(/\s+/g, '-');
  return (
    <span className={`admin-status admin-status--${tone}`}>{statusText(status, details)}</span>
  );
}
