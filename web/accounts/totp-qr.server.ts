import QRCode from 'qrcode';

/**
 * The otpauth address as a QR code an authenticator app scans (issue 20), drawn on the server
 * as an SVG data address so the QR library never reaches the browser. Error correction M and a
 * four-module quiet zone, which phone cameras read at the size the page shows it.
 */
export async function totpQrCode(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
