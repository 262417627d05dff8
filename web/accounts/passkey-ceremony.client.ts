import { startAuthentication, startRegistration } from '@simplewebauthn/browser';

// The browser's half of a passkey ceremony (issue 20), loaded only when someone presses a
// passkey button: the options come from the server (which keeps the challenge), the
// authenticator answers, and the answer goes back in a form post.

async function optionsFor(purpose: 'sign-in' | 'register', csrfToken: string, next = '/') {
  const body = new URLSearchParams({ purpose, next, csrfmiddlewaretoken: csrfToken });
  const response = await fetch('/accounts/passkey/options', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'X-CSRFToken': csrfToken },
    body,
  });
  if (!response.ok) throw new Error(`passkey options: ${response.status}`);
  return response.json();
}

/** The signed assertion of a discoverable passkey, as JSON for the sign-in form. */
export async function passkeyAssertion(csrfToken: string, next: string): Promise<string> {
  const optionsJSON = await optionsFor('sign-in', csrfToken, next);
  return JSON.stringify(await startAuthentication({ optionsJSON }));
}

/** A new passkey's attestation, as JSON for the add form. */
export async function passkeyAttestation(csrfToken: string): Promise<string> {
  const optionsJSON = await optionsFor('register', csrfToken);
  return JSON.stringify(await startRegistration({ optionsJSON }));
}
