extension PageTemplates {
    /// `/account`: the signed-in user's passkeys, with rename, delete and add.
    static let account = #"""
        {{<layout}}
        {{$title}}Your passkeys · swift-passkeys{{/title}}
        {{$scripts}}<script src="/assets/passkeys.js" defer></script><script src="/assets/account.js" defer></script>{{/scripts}}
        {{$nav}}
        <span>Signed in as <strong>{{{userName}}}</strong></span>
        <form method="post" action="/sign-out"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="link" id="sign-out">Sign out</button></form>
        {{/nav}}
        {{$main}}
        <h1>Your passkeys</h1>
        <p class="lead">Each passkey signs you in to {{{rpName}}} from one device, or from every device of a synced account.</p>
        {{#notice}}<p id="status" class="status ok" role="status" aria-live="polite">{{{notice}}}</p>{{/notice}}
        {{#problem}}<p id="status" class="status error" role="alert">{{{problem}}}</p>{{/problem}}
        {{^notice}}{{^problem}}<p id="status" class="status" role="status" aria-live="polite"></p>{{/problem}}{{/notice}}
        {{^passkeys}}<p class="card">You have no passkeys. Add one below to be able to sign in again.</p>{{/passkeys}}
        <ul class="passkeys" data-user-handle="{{{userHandle}}}" data-user-name="{{{userName}}}" data-display-name="{{{displayName}}}"{{#unknownCredential}} data-unknown-credential="{{{unknownCredential}}}"{{/unknownCredential}}>
        {{#passkeys}}
          <li class="card passkey" data-credential-id="{{{credentialId}}}">
            <h3>{{{name}}}<span class="badge">{{{kindLabel}}}</span></h3>
            <dl class="facts">
              <dt>Authenticator</dt><dd>{{{authenticator}}}</dd>
              <dt>Created</dt><dd><time datetime="{{{createdISO}}}">{{{created}}}</time></dd>
              <dt>Last used</dt><dd>{{#lastUsedISO}}<time datetime="{{{lastUsedISO}}}">{{{lastUsed}}}</time>{{/lastUsedISO}}{{^lastUsedISO}}Never{{/lastUsedISO}}</dd>
            </dl>
            <form class="row rename" method="post" action="/account/passkeys/{{{credentialId}}}/rename">
              <input type="hidden" name="csrfToken" value="{{{csrfToken}}}">
              <div class="grow">
                <label for="name-{{{credentialId}}}">Name</label>
                <input id="name-{{{credentialId}}}" name="name" type="text" value="{{{name}}}" maxlength="64" required>
              </div>
              <button type="submit" class="secondary">Rename</button>
              <a class="button secondary delete" href="/account/passkeys/{{{credentialId}}}/delete">Delete…</a>
            </form>
          </li>
        {{/passkeys}}
        </ul>
        <section class="card spaced" aria-labelledby="step-up-heading">
          <h2 id="step-up-heading">Confirm a payment</h2>
          <p>Before something important, such as sending money, the site asks for your passkey again. You see exactly what you approve, and your passkey signs that very text: nobody can swap in another payment after you said yes.</p>
          <pre id="step-up-text" class="transaction" hidden></pre>
          <button type="button" id="confirm-payment">Confirm the sample payment</button>
          <dl id="step-up-result" class="facts" hidden>
            <dt>Signed text</dt><dd id="step-up-signed"></dd>
            <dt>Digest (SHA-256)</dt><dd id="step-up-digest" class="mono"></dd>
            <dt>Assurance</dt><dd id="step-up-assurance"></dd>
          </dl>
        </section>
        {{^operatorAccount}}
        <section class="card spaced" aria-labelledby="add-heading">
          <h2 id="add-heading">Add a passkey</h2>
          <form id="add-passkey" class="row" novalidate>
            <div class="grow">
              <label for="add-name">Name <span class="hint">(optional)</span></label>
              <input id="add-name" name="name" type="text" maxlength="64">
            </div>
            <button type="submit">Add a passkey</button>
          </form>
        </section>
        {{/operatorAccount}}
        {{#operatorAccount}}<p class="hint spaced" id="operator-account">This is an operator's account: its passkeys are added in the operator console.</p>{{/operatorAccount}}
        {{/main}}
        {{/layout}}
        """#

    /// `/account/passkeys/{id}/delete`: the confirmation before a passkey is deleted.
    static let confirmDelete = #"""
        {{<layout}}
        {{$title}}Delete a passkey · swift-passkeys{{/title}}
        {{$nav}}<a href="/account">Your passkeys</a>{{/nav}}
        {{$main}}
        <h1>Delete “{{{name}}}”?</h1>
        <p>You will no longer be able to sign in with this passkey. {{#isLast}}<strong>It is your only passkey: after this you cannot sign in until you create a new account.</strong>{{/isLast}}</p>
        <p class="hint">The passkey stays on your device until you remove it there; this site will refuse it.</p>
        <form method="post" action="/account/passkeys/{{{credentialId}}}/delete" class="row">
          <input type="hidden" name="csrfToken" value="{{{csrfToken}}}">
          <button type="submit" class="danger" id="confirm-delete">Delete passkey</button>
          <a class="button secondary" href="/account">Keep it</a>
        </form>
        {{/main}}
        {{/layout}}
        """#
}
