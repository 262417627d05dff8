import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';

export type TotpSetupData = { groupedSecret: string; uri: string; qrCode: string };

/**
 * The authenticator's secret for an app, and the field for its first code (issue 20): a QR code
 * to scan, the secret in groups for typing, and the otpauth address that apps accept pasted.
 */
export function TotpSetup({
  setup,
  error,
  errorParams,
}: {
  setup: TotpSetupData;
  error?: string;
  errorParams?: Record<string, number>;
}) {
  const t = useT();
  return (
    <div className="stack">
      <p>{t('security.totp.setup.intro')}</p>
      <img
        className="totp-qr"
        src={setup.qrCode}
        alt={t('security.totp.setup.qrAlt')}
        width={200}
        height={200}
      />
      <dl className="details">
        <dt>{t('security.totp.setup.secret')}</dt>
        <dd>
          <code translate="no">{setup.groupedSecret}</code>
        </dd>
        <dt>{t('security.totp.setup.uri')}</dt>
        <dd>
          <code translate="no" className="break-anywhere">
            {setup.uri}
          </code>
        </dd>
      </dl>
      <TextField
        name="code"
        label={t('security.totp.code')}
        error={error}
        errorParams={errorParams}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        maxLength={20}
      />
    </div>
  );
}
