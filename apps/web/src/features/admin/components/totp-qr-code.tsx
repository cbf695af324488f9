import { encode } from 'uqr';

/**
 * The setup link as a QR code for an authenticator app's camera (decision 026), drawn as one SVG
 * path from the encoder's modules: no markup from outside, nothing for the page's CSP to allow.
 * A chunk of its own, loaded only by the enrolment step.
 */
export default function TotpQrCode({ uri }: { uri: string }) {
  const { data, size } = encode(uri, { ecc: 'M', border: 2 });
  const path = data
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
    .join('');
  return (
    <svg
      role="img"
      aria-label="QR code of the setup link"
      className="admin-qr"
      viewBox={`0 0 ${size} ${size}`}
      width="200"
      height="200"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
