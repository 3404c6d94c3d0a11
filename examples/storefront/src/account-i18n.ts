// The words of the wishlist, the account pages (password reset, email confirmation, profile, address book) and the
// checkout's saved addresses, in English and German; other keys fall back to the shop's translator (i18n.ts).
import { useShop } from './store';
import type { Translate } from './i18n';

const en = {
  wishlist: 'Wishlist',
  wishlistAdd: 'Save {name} to the wishlist',
  wishlistRemove: 'Remove {name} from the wishlist',
  wishlistEmpty: 'Your wishlist is empty. Tap the heart on a wine to save it here.',
  wishlistCount: '{count} saved wines',
  wishlistCountOne: '1 saved wine',
  wishlistSignInHint: 'Saved on this device; sign in to keep them in your account.',
  forgotPassword: 'Forgot your password?',
  resetPassword: 'Reset password',
  resetRequestIntro: 'Enter the email address of your account. If it has one, we send a reset code to it.',
  sendResetCode: 'Send reset code',
  resetCodeSent: 'If {email} has an account, a reset code is on its way. It is valid for 2 hours.',
  haveCode: 'I have a code',
  resetCode: 'Code from the email',
  newPassword: 'New password',
  setPassword: 'Set new password',
  passwordChanged: 'Your password is changed and your email address confirmed. Please sign in with the new password.',
  confirmEmail: 'Confirm email address',
  confirmIntro: 'Enter the code from the confirmation email we sent when you created your account.',
  confirmCode: 'Confirmation code',
  confirm: 'Confirm',
  emailConfirmed: 'Thank you: your email address is confirmed.',
  emailNotConfirmed: 'Your email address is not confirmed yet.',
  emailConfirmedShort: 'confirmed',
  'token.invalid_token': 'This code is unknown, used or expired. Ask for a new one.',
  editProfile: 'Edit profile',
  saveProfile: 'Save profile',
  profileSaved: 'Profile saved.',
  defaultAddress: 'Billing address',
  addressSaved: 'Address saved.',
  addressRemoved: 'Address removed.',
  savedAddresses: 'Saved addresses',
  useSavedAddress: 'Use a saved address',
  newAddress: 'A new address',
  addressKeptWithOrder: 'A new address is kept in your account with the order.',
  signedInAs: 'Signed in as {email}',
  company: 'Company',
};

export type AccountKey = keyof typeof en;

const de: Record<AccountKey, string> = {
  wishlist: 'Merkliste',
  wishlistAdd: '{name} auf die Merkliste setzen',
  wishlistRemove: '{name} von der Merkliste entfernen',
  wishlistEmpty: 'Ihre Merkliste ist leer. Tippen Sie auf das Herz eines Weins, um ihn hier zu speichern.',
  wishlistCount: '{count} gemerkte Weine',
  wishlistCountOne: '1 gemerkter Wein',
  wishlistSignInHint: 'Auf diesem Gerät gespeichert; melden Sie sich an, um sie in Ihrem Konto zu behalten.',
  forgotPassword: 'Passwort vergessen?',
  resetPassword: 'Passwort zurücksetzen',
  resetRequestIntro: 'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Falls es eines gibt, senden wir einen Code dorthin.',
  sendResetCode: 'Code senden',
  resetCodeSent: 'Falls {email} ein Konto hat, ist ein Code unterwegs. Er gilt 2 Stunden.',
  haveCode: 'Ich habe einen Code',
  resetCode: 'Code aus der E-Mail',
  newPassword: 'Neues Passwort',
  setPassword: 'Neues Passwort setzen',
  passwordChanged: 'Ihr Passwort ist geändert und Ihre E-Mail-Adresse bestätigt. Bitte melden Sie sich mit dem neuen Passwort an.',
  confirmEmail: 'E-Mail-Adresse bestätigen',
  confirmIntro: 'Geben Sie den Code aus der Bestätigungs-E-Mail ein, die wir bei der Kontoeröffnung gesendet haben.',
  confirmCode: 'Bestätigungscode',
  confirm: 'Bestätigen',
  emailConfirmed: 'Danke: Ihre E-Mail-Adresse ist bestätigt.',
  emailNotConfirmed: 'Ihre E-Mail-Adresse ist noch nicht bestätigt.',
  emailConfirmedShort: 'bestätigt',
  'token.invalid_token': 'Dieser Code ist unbekannt, verbraucht oder abgelaufen. Fordern Sie einen neuen an.',
  editProfile: 'Profil bearbeiten',
  saveProfile: 'Profil speichern',
  profileSaved: 'Profil gespeichert.',
  defaultAddress: 'Rechnungsadresse',
  addressSaved: 'Adresse gespeichert.',
  addressRemoved: 'Adresse entfernt.',
  savedAddresses: 'Gespeicherte Adressen',
  useSavedAddress: 'Gespeicherte Adresse verwenden',
  newAddress: 'Eine neue Adresse',
  addressKeptWithOrder: 'Eine neue Adresse wird mit der Bestellung in Ihrem Konto gespeichert.',
  signedInAs: 'Angemeldet als {email}',
  company: 'Firma',
};

/** The shop's translator, knowing the account words too. */
export function accountTranslator(locale: string, shop: Translate): Translate {
  const table: Record<string, string> = locale === 'de' ? de : en;
  return (key, vars) => {
    const own = table[key] ?? (en as Record<string, string>)[key];
    if (own === undefined) return shop(key, vars);
    let text = own;
    for (const [k, v] of Object.entries(vars ?? {})) text = text.replace(`{${k}}`, String(v));
    return text;
  };
}

/** `useShop().t` with the account words. */
export function useAccountT(): Translate {
  const { t, locale } = useShop();
  return accountTranslator(locale, t);
}
