extension PageTemplates {
    /// `/console/users/{userId}/recovery`: the one-time link of a recovery an operator started, and its QR code.
    static let consoleRecovery = #"""
        {{<layout}}
        {{$title}}Recovery for {{{userName}}} · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$main}}
        <h1>Recovery for {{{userName}}}</h1>
        <p class="lead">Give this link to {{{displayName}}} by a channel you trust, to open on their new device. It is
        shown once, and works until {{{expires}}}.</p>
        <div class="card recovery-link">
          <img id="recovery-qr" class="qr" src="data:image/svg+xml;base64,{{{qrCode}}}" alt="QR code of the recovery link" width="240" height="240">
          <p><a id="recovery-link" class="mono break" href="{{{link}}}">{{{link}}}</a></p>
        </div>
        <p>On that device the person verifies their identity, creates a new passkey, and the passkeys they lost are
        revoked ({{{revokePolicy}}}).</p>
        <p><a href="/console/users/{{{userID}}}">Back to {{{userName}}}</a></p>
        {{/main}}
        {{/layout}}
        """#

    /// `/recover#<attempt>.<token>`: the new device's page of an account recovery.
    static let recover = #"""
        {{<layout}}
        {{$title}}Recover your account · swift-passkeys{{/title}}
        {{$scripts}}<script src="/assets/passkeys.js" defer></script><script src="/assets/recover.js" defer></script>{{/scripts}}
        {{$main}}
        <h1>Recover your account</h1>
        <p class="lead">Get back into {{{rpName}}} on this device: prove who you are, then create a new passkey here.</p>
        <ol class="steps">
          <li id="step-identity">Verify your identity <span id="identity-run" class="mono"></span></li>
          <li id="step-passkey">Create a passkey on this device</li>
          <li id="step-done">Your old passkeys are revoked</li>
        </ol>
        <p id="status" class="status" role="status" aria-live="polite"></p>
        <button type="button" id="recover-start">Start</button>
        <div id="recovered" hidden>
          <p>Your new passkey <strong id="new-passkey"></strong> is active.</p>
          <p id="revoked-text"></p>
          <p id="recovered-next"><a class="button" href="/">Sign in</a></p>
        </div>
        {{/main}}
        {{/layout}}
        """#
}
