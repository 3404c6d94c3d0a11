// Password reset and email confirmation. The API mails a single-use code (README "Shopper accounts"); a mail that
// links here carries it as `?token=`, which fills the code field. `/account/forgot-password` asks for the code,
// `/account/reset-password` sets the new password with it, `/account/confirm-email` confirms the address.
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { api, ApiError, ok } from '../../api/client';
import { useAccountT } from '../../account-i18n';
import { ErrorNote, Field } from '../../ui';

/** A refused code in the shopper's words; any other error as the shop shows errors. */
function CodeError({ error }: { error: unknown }) {
  const t = useAccountT();
  if (error instanceof ApiError && error.code === 'invalid_token') {
    return (
      <p className="error" role="alert">
        {t('token.invalid_token')}
      </p>
    );
  }
  return <ErrorNote error={error} />;
}

/** The code from the link (`?token=`; not a shop's public `vnstss_` token), else empty. */
function useTokenParam(): string {
  return new URLSearchParams(useSearch()).getAll('token').find((v) => !v.startsWith('vnstss_')) ?? '';
}

export function ForgotPasswordPage() {
  const t = useAccountT();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      // always 202: the answer does not tell whether the email has an account
      const r = await api.POST('/api/2026-04-01/customers/recover', { body: { email } });
      if (!r.response.ok) ok(r);
      setSent(email);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="auth" onSubmit={(e) => void submit(e)}>
      <h1>{t('resetPassword')}</h1>
      {sent ? (
        <p role="status" data-testid="reset-sent">
          {t('resetCodeSent', { email: sent })}
        </p>
      ) : (
        <>
          <p>{t('resetRequestIntro')}</p>
          <Field label={t('email')}>
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <ErrorNote error={error} />
          <button type="submit" className="primary">
            {t('sendResetCode')}
          </button>
        </>
      )}
      <p>
        <Link href="/account/reset-password">{t('haveCode')}</Link> · <Link href="/account/sign-in">{t('signIn')}</Link>
      </p>
    </form>
  );
}

export function ResetPasswordPage() {
  const t = useAccountT();
  const [token, setToken] = useState(useTokenParam());
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api.POST('/api/2026-04-01/customers/reset_password', { body: { token: token.trim(), password } });
      if (!r.response.ok) ok(r);
      setDone(true);
    } catch (err) {
      setError(err);
    }
  };
  if (done) {
    return (
      <section className="auth">
        <h1>{t('resetPassword')}</h1>
        <p role="status" data-testid="password-changed">
          {t('passwordChanged')}
        </p>
        <Link href="/account/sign-in">{t('signIn')}</Link>
      </section>
    );
  }
  return (
    <form className="auth" onSubmit={(e) => void submit(e)}>
      <h1>{t('resetPassword')}</h1>
      <Field label={t('resetCode')}>
        <input name="token" autoComplete="one-time-code" required value={token} onChange={(e) => setToken(e.target.value)} />
      </Field>
      <Field label={t('newPassword')} hint={t('passwordHint')}>
        <input type="password" name="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <CodeError error={error} />
      <button type="submit" className="primary">
        {t('setPassword')}
      </button>
      <p>
        <Link href="/account/forgot-password">{t('sendResetCode')}</Link>
      </p>
    </form>
  );
}

export function ConfirmEmailPage() {
  const t = useAccountT();
  const [token, setToken] = useState(useTokenParam());
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api.POST('/api/2026-04-01/customers/confirm_email', { body: { token: token.trim() } });
      if (!r.response.ok) ok(r);
      setDone(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="auth" onSubmit={(e) => void submit(e)}>
      <h1>{t('confirmEmail')}</h1>
      {done ? (
        <>
          <p role="status" data-testid="email-confirmed">
            {t('emailConfirmed')}
          </p>
          <Link href="/account">{t('account')}</Link>
        </>
      ) : (
        <>
          <p>{t('confirmIntro')}</p>
          <Field label={t('confirmCode')}>
            <input name="token" autoComplete="one-time-code" required value={token} onChange={(e) => setToken(e.target.value)} />
          </Field>
          <CodeError error={error} />
          <button type="submit" className="primary">
            {t('confirm')}
          </button>
        </>
      )}
    </form>
  );
}
