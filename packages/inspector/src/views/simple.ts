import { html } from '../render/html'
import { homeUrl, type PageFrame, renderPage } from '../render/layout'

/** The workspace picker. */
export function workspacesPage(frame: PageFrame, workspaces: readonly string[]): string {
  return renderPage(frame, {
    title: 'Workspaces',
    body: html`<h1>Workspaces</h1>${
      workspaces.length === 0
        ? html`<p>This token may not see any workspace.</p>`
        : html`<ul class="workspaces">${workspaces.map(
            (ws) => html`<li><a href="${frame.base}/w/${encodeURIComponent(ws)}/graph">${ws}</a></li>`,
          )}</ul>`
    }`,
  })
}

/** A failure the visitor can act on (bad input, not found, not allowed). */
export function errorPage(frame: PageFrame, status: number, message: string): string {
  const title =
    status === 404
      ? 'Not found'
      : status === 403
        ? 'Not allowed'
        : status >= 500
          ? 'Something went wrong'
          : 'Cannot do that'
  return renderPage(frame, {
    title,
    body: html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p><a href="${homeUrl(frame)}">Back to the start</a></p>`,
  })
}

/** The sign-in form shown when auth is on and the request carries no valid token. */
export function signInPage(frame: PageFrame, failed: boolean): string {
  return renderPage(frame, {
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
${failed ? html`<p class="error" role="alert">That token is not valid.</p>` : null}
<p>This HyMem server needs a token (one of <code>HYMEM_AUTH_TOKENS</code>). It is kept in a cookie for this browser only.</p>
<form method="post" action="${frame.base}/sign-in" class="sign-in">
<label>Token<input type="password" name="token" required autocomplete="current-password" autofocus></label>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  })
}
