/**
 * The Carfax sandbox's HTML pages (sign-in with consent, signed out, errors): plain server-rendered
 * forms, since the sandbox stands in for a third party's site and is no part of our web app.
 */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function layout(title: string, body: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Carfax sandbox</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
<div class="ribbon" role="note">Carfax sandbox: test users only, no real Carfax account is used.</div>
<main class="box">
${body}
</main>
</body>
</html>`;
}

export interface ConsentPageInput {
  stylesheet: string;
  action: string;
  request: string;
  clientName: string;
  /** The signed-in sandbox user, if any: then only the consent is asked. */
  signedInAs: string | null;
  error: string | null;
  email: string;
}

export function consentPage(input: ConsentPageInput): string {
  const error = input.error
    ? `<div class="error" role="alert" id="signin-error"><p>${escapeHtml(input.error)}</p></div>`
    : '';
  const described = input.error ? ' aria-describedby="signin-error"' : '';
  const credentials = input.signedInAs
    ? `<p>Signed in as <strong>${escapeHtml(input.signedInAs)}</strong>.</p>`
    : `<p>Sign in with a sandbox test user to let ${escapeHtml(input.clientName)} use your Carfax account.</p>
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email)}"${described}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
</div>`;
  return layout(
    'Sign in to Carfax',
    `<h1>Sign in to Carfax</h1>
${error}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="request" value="${escapeHtml(input.request)}">
${credentials}
<p><strong>${escapeHtml(input.clientName)}</strong> asks to open Carfax vehicle history reports on your behalf and to stay connected until you sign out.</p>
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate class="secondary">Deny</button>
</div>
</form>`,
    input.stylesheet,
  );
}

export function messagePage(stylesheet: string, heading: string, text: string): string {
  return layout(heading, `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`, stylesheet);
}

export const SANDBOX_STYLESHEET = `
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #f3f5f7; }
.ribbon { background: #7a3e00; color: #fff; text-align: center; padding: 0.4rem; font-weight: 600; }
.box { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.2); }
h1 { font-size: 1.5rem; margin-top: 0; }
.field { margin: 1rem 0; display: flex; flex-direction: column; }
label { font-weight: 600; margin-bottom: 0.25rem; }
input[type=email], input[type=password] { font: inherit; padding: 0.5rem; border: 1px solid #5c5c5c; border-radius: 4px; }
input:focus, button:focus { outline: 3px solid #0b5cad; outline-offset: 2px; }
.actions { display: flex; gap: 0.75rem; margin-top: 1.25rem; }
button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 4px; border: 2px solid #0b4f94; background: #0b4f94; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #0b4f94; }
.error { border-left: 4px solid #b00020; background: #fdecee; padding: 0.25rem 1rem; color: #7a0016; }
`;
