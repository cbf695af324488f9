/**
 * Server field names that the sign-up pages show under another of their fields (001 §8:
 * 'Sign-up status errors are listed under the form'); `useSubmit` puts each on its field.
 */
export const SIGNUP_FIELD_ALIASES: Readonly<Record<string, string>> = {
  dealershipName: 'dealership',
  subscriptionSelection: 'subscriptions',
  paymentToken: 'creditCardNumber',
  cardBrand: 'creditCardNumber',
  cardLast4: 'creditCardNumber',
  termAndCondition: 'terms',
  dealershipAddress1: 'address1',
  dealershipAddress2: 'address2',
  dealershipCountry: 'country',
  dealershipState: 'state',
  dealershipCity: 'city',
  dealershipPostalCode: 'zip',
  userAuctionAccessId: 'auctionAccessId',
  promotionCodeNotValid: 'promoCode',
};
