/**
 * The compatibility `POST /api/pdf/zip` (000 §7, DECISIONS R9): the browser sends base64 PDFs
 * and gets them back as one zip. The route validates the body with ZPdfZipRequestSchema; this
 * repeats R9's limits on what is actually decoded (so the service is safe on its own) and adds
 * what the schema cannot see. Anything refused is a 400 before the first byte is streamed.
 */
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  base64DecodedLength,
  isSafeFileName,
  PDF_ZIP_LIMITS,
  WINDOWS_DEVICE_NAME_PATTERN,
  type TPdfZipRequest,
} from '@dealerpass/domain/schemas/payment-history';
import { DEFAULT_BUSINESS_TIME_ZONE } from '@dealerpass/domain/time/calendar-date';
import { AppError, type FieldError } from '../../errors/app-error.ts';
import { isPdf, zipDownload, type IZipDownload } from './zip-download.ts';

export const PDF_ZIP_MESSAGES = {
  fileCount: `Choose between 1 and ${PDF_ZIP_LIMITS.maxFiles} files.`,
  tooLarge: 'The files are too large.',
  unsafeName: 'Use letters, digits, dots, dashes and underscores only.',
  reservedName: 'This file name is reserved.',
  duplicateName: 'File names must be unique.',
  notPdf: 'Each file must be a PDF.',
} as const;

export function zipFromBase64Pdfs(
  request: TPdfZipRequest,
  options: { now: Date; timeZone?: string },
): IZipDownload {
  const errors: FieldError[] = [];
  const refuse = (source: string, message: string) => errors.push({ source, message });
  const blobs = request.pdfBlobs;

  if (!isSafeFileName(request.zipFilename, '.zip'))
    refuse('zipFilename', PDF_ZIP_MESSAGES.unsafeName);
  else if (WINDOWS_DEVICE_NAME_PATTERN.test(request.zipFilename)) {
    refuse('zipFilename', PDF_ZIP_MESSAGES.reservedName);
  }
  if (blobs.length < 1 || blobs.length > PDF_ZIP_LIMITS.maxFiles) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [...errors, { source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.fileCount }],
    });
  }
  // Checked on the text before decoding anything, so an oversized body costs no decoding.
  const announced = blobs.reduce((sum, blob) => sum + base64DecodedLength(blob.data), 0);
  if (announced > PDF_ZIP_LIMITS.maxTotalBytes) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [...errors, { source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.tooLarge }],
    });
  }

  // Case-insensitive: 'A.pdf' and 'a.pdf' would overwrite each other on Windows and macOS.
  const seen = new Set<string>();
  const entries = blobs.map((blob, i) => {
    const name = blob.filename;
    if (!isSafeFileName(name, '.pdf'))
      refuse(`pdfBlobs.${i}.filename`, PDF_ZIP_MESSAGES.unsafeName);
    else if (WINDOWS_DEVICE_NAME_PATTERN.test(name)) {
      refuse(`pdfBlobs.${i}.filename`, PDF_ZIP_MESSAGES.reservedName);
    } else if (seen.has(name.toLowerCase())) {
      refuse(`pdfBlobs.${i}.filename`, PDF_ZIP_MESSAGES.duplicateName);
    }
    seen.add(name.toLowerCase());
    const data = Buffer.from(blob.data, 'base64');
    // Node's decoder quietly skips or stops at characters outside the alphabet: a length that
    // disagrees with the text's means the text was not plain base64.
    const wellFormed = blob.data.length % 4 === 0 && data.length === base64DecodedLength(blob.data);
    if (!wellFormed || !isPdf(data)) refuse(`pdfBlobs.${i}.data`, PDF_ZIP_MESSAGES.notPdf);
    return { name, data };
  });
  if (errors.length > 0) throw new AppError(ERROR_CODES.VALIDATION_FAILED, { errors });

  return zipDownload(
    request.zipFilename,
    entries,
    options.now,
    options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE,
  );
}
