/** Auction messages (001 §8), verbatim. */
export const AUCTION_MESSAGES = {
  loadDetailsFailed: 'Unable to load auction details.',
  noUpcoming: 'There are no upcoming auctions.',
  retrieveFailed: 'Unable to retrieve auctions.',
  loadDataFailed: 'Unable to load auction data.',
  loadFavoritesFailed: 'Unable to load favorite auction data.',
  updateSearchHistoryFailed: 'Unable to update search history.',
  updateFavoritesFailed: 'Unable to update favorite auction data.',
  updateVehicleFailed: 'Unable to update vehicle data.',
} as const;
