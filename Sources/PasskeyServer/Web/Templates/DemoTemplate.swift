extension PageTemplates {
    /// `/`: sign up, and sign in with a user name, without one, or from the user name field's autofill; a notice after
    /// a sign-out the server made (`?done=…`).
    static let demo = #"""
        {{<layout}}
        {{$title}}Passkey demo · swift-passkeys{{/title}}
        {{$scripts}}<script src="/assets/passkeys.js" defer></script><script src="/assets/demo.js" defer></script><script src="/assets/phone-sign-in.js" defer></script>{{/scripts}}
        {{$nav}}{{#userName}}<span>Signed in as <strong>{{{userName}}}</strong></span> <a href="/account">Your account</a>{{/userName}}{{/nav}}
        {{$main}}
        <h1>Sign in with a passkey</h1>
        <p class="lead">No password: your device creates a key pair for this site and unlocks it with your fingerprint, face or screen lock.</p>
        <p id="status" class="status{{#notice}} ok{{/notice}}" role="status" aria-live="polite"{{#unknownCredential}} data-unknown-credential="{{{unknownCredential}}}"{{/unknownCredential}}>{{{notice}}}</p>
        <div class="cards">
          <section class="card" aria-labelledby="sign-up-heading">
            <h2 id="sign-up-heading">Create an account</h2>
            <form id="sign-up" novalidate>
              <label for="sign-up-name">User name</label>
              <input id="sign-up-name" name="userName" type="text" autocomplete="username" autocapitalize="none"
                spellcheck="false" required maxlength="64" aria-describedby="sign-up-name-hint">
              <p id="sign-up-name-hint" class="hint">Letters, digits and . _ - @ + (1 to 64 characters).</p>
              <label for="sign-up-display">Display name <span class="hint">(optional)</span></label>
              <input id="sign-up-display" name="displayName" type="text" autocomplete="name" maxlength="64">
              <button type="submit">Create account with a passkey</button>
            </form>
          </section>
          <section class="card" aria-labelledby="sign-in-heading">
            <h2 id="sign-in-heading">Sign in</h2>
            <form id="sign-in" novalidate>
              <label for="sign-in-name">User name</label>
              <input id="sign-in-name" name="userName" type="text" autocomplete="username webauthn" autocapitalize="none"
                spellcheck="false" maxlength="64" aria-describedby="sign-in-name-hint">
              <p id="sign-in-name-hint" class="hint">Your passkeys are offered as you type; no name to hand? Sign in without one.</p>
              <div class="row">
                <button type="submit">Sign in</button>
                <button type="button" id="sign-in-discoverable" class="secondary">Sign in without a user name</button>
                <button type="button" id="sign-in-phone" class="secondary">Sign in with your phone</button>
              </div>
            </form>
          </section>
        </div>
        <section id="phone" class="card spaced" aria-labelledby="phone-heading" hidden>
          <h2 id="phone-heading">Sign in with your phone</h2>
          <p class="hint">Scan the QR code with the phone that has your passkey, or open the link on it. Check that the phone shows the same number.</p>
          <div id="phone-handoff" class="handoff">
            <img id="phone-qr" class="qr" alt="QR code of the sign-in link: scan it with the phone that has your passkey">
            <div class="grow">
              <p class="code-label">The number to check on your phone</p>
              <p id="phone-code" class="code-number"></p>
              <label for="phone-link">The link, to open on your phone</label>
              <input id="phone-link" type="text" readonly class="mono">
              <button type="button" id="phone-copy" class="secondary">Copy the link</button>
              <button type="button" id="phone-cancel" class="secondary">Cancel</button>
            </div>
          </div>
          <p id="phone-status" class="status" role="status" aria-live="polite"></p>
          <button type="button" id="phone-again" hidden>Get a new code</button>
        </section>
        {{/main}}
        {{/layout}}
        """#
}
