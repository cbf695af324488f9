import { R3_PRICE_TABLE } from '@dealerpass/domain/prices';
import { setPriceTableForTests } from './lib/price-table.ts';

// Unit tests render without our server, so without the page's price table: R3's is what the
// server's database starts with (docs/decisions/025).
setPriceTableForTests(R3_PRICE_TABLE);
