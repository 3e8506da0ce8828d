extension PageTemplates {
    /// `/approve`: the page a phone's browser opens from a handoff's deep link (`/approve#TOKEN`). Its script reads the
    /// token from the fragment, which never reaches the server in the address, shows what the handoff asks without
    /// claiming it, and asks for the number the other screen shows; pressing "Approve" claims the handoff, then signs
    /// with a passkey of this phone.
    static let approve = #"""
        {{<layout}}
        {{$title}}Approve a sign-in · swift-passkeys{{/title}}
        {{$scripts}}<script src="/assets/passkeys.js" defer></script><script src="/assets/approve.js" defer></script>{{/scripts}}
        {{$main}}
        <h1>Approve a sign-in</h1>
        <p class="lead">Another screen asks to sign in to {{{rpName}}} with a passkey of this phone. Approve only if you started it.</p>
        <p id="approve-status" class="status info" role="status" aria-live="polite">Opening the sign-in…</p>
        <section id="approve-ask" class="card" aria-labelledby="approve-heading" hidden>
          <h2 id="approve-heading">Is this you?</h2>
          <div id="approve-transaction-box" hidden>
            <p class="code-label">You are approving</p>
            <pre id="approve-transaction" class="transaction"></pre>
          </div>
          <form id="approve-form" novalidate>
            <label for="approve-code">The number on the other screen</label>
            <input id="approve-code" name="verificationCode" class="code-input" type="text" inputmode="numeric"
              autocomplete="one-time-code" maxlength="2" required aria-describedby="approve-code-hint">
            <p id="approve-code-hint" class="hint">Two digits. If the other screen shows no number, or another one, choose “Not me”.</p>
            <div class="row">
              <button type="submit">Approve</button>
              <button type="button" id="approve-reject" class="secondary">Not me</button>
            </div>
          </form>
        </section>
        {{/main}}
        {{/layout}}
        """#
}
