/**
 * A period's next attempt: a new charge, so a new idempotency key (the old key would answer the
 * old outcome), and no card until the attempt is claimed: it charges the card on file then.
 */
export function nextAttempt(period: {
  userId: string;
  kind: string;
  periodStart: string;
  attempt: number;
}) {
  const attempt = period.attempt + 1;
  return {
    attempt,
    idempotencyKey: `${period.kind}:${period.userId}:${period.periodStart}:${attempt}`,
    gatewayCustomerId: null,
    gatewayPaymentProfileId: null,
    cardBrand: null,
    cardLast4: null,
  };
}
