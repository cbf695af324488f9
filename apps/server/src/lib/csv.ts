/**
 * The CSV rules live in the domain (RFC 4180, formulas neutralized; docs/decisions/030) so the
 * console's chart downloads (issue 29) write the same cells as the server's exports.
 */
export { csvField, csvRecord } from '@dealerpass/domain/csv';
