/** The short page a browser sees at `/` without a session: how to get in, never the token itself. */
const TEXT = {
  'no-session': 'Open the login address that Almanac printed when it started (it looks like http://127.0.0.1:PORT/?token=…). In the desktop app, Help → API token shows it.',
  'wrong-token': 'That login address has an old or wrong token. Use the address Almanac printed when it started.',
  'not-built': 'The calendar UI has not been built yet. Run "npm run build", then reload.',
} as const;

export function loginHelpPage(reason: keyof typeof TEXT): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Almanac</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}
@media (prefers-color-scheme: dark){body{background:#1b1b1f;color:#eee}}</style></head>
<body><h1>Almanac</h1><p>${TEXT[reason]}</p></body></html>`;
}
