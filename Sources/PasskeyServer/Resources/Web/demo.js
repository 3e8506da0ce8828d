"use strict";
(() => {
  const status = document.getElementById("status");
  let autofill = null;
  // After a passkey was deleted (and this session with it), the browser's provider is told to forget it.
  const unknown = status?.dataset.unknownCredential;
  if (unknown) Passkeys.signalUnknownCredential(unknown);

  function busy(form, on) { for (const button of form.querySelectorAll("button")) button.disabled = on; }

  async function finish(path, body) {
    const { redirect } = await Passkeys.post(path, body);
    window.location.assign(redirect ?? "/account");
  }

  async function signIn(userName) {
    autofill?.abort();
    const session = await Passkeys.post("/demo/sign-in", userName ? { userName } : {});
    Passkeys.show(status, "info", "Waiting for your passkey…");
    const { resultToken } = await Passkeys.authenticate(session);
    await finish("/demo/sign-in/finish", { biometricPasskeySessionId: session.biometricPasskeySessionId, resultToken });
  }

  async function run(form, task) {
    busy(form, true);
    try { await task(); } catch (error) {
      if (error.code !== "ABORTED") Passkeys.showFailure(status, error);
    } finally { busy(form, false); }
  }

  document.getElementById("sign-up")?.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    run(form, async () => {
      autofill?.abort();
      const userName = form.elements.userName.value.trim();
      const displayName = form.elements.displayName.value.trim();
      const attempt = await Passkeys.post("/demo/sign-up", { userName, displayName: displayName || undefined });
      Passkeys.show(status, "info", "Follow your browser's prompt to create a passkey…");
      await Passkeys.register(attempt);
      await finish("/demo/sign-up/finish", { registrationAttemptId: attempt.registrationAttemptId });
    });
  });

  document.getElementById("sign-in")?.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const userName = form.elements.userName.value.trim();
    // An empty name is asked for: a sign-in without one is its own button, never a silent fallback.
    if (!userName) {
      Passkeys.show(status, "error", "Type your user name, or press “Sign in without a user name”.");
      form.elements.userName.focus();
      return;
    }
    run(form, () => signIn(userName));
  });

  document.getElementById("sign-in-discoverable")?.addEventListener("click", (event) => {
    run(event.currentTarget.form, () => signIn(null));
  });

  // Autofill: when the user name field gets focus, a conditional request waits in the background until the
  // user picks a passkey from the field's suggestions; a button press replaces it. (Started on focus rather
  // than on load, so that merely visiting the page never asks an authenticator for anything.)
  async function startAutofill() {
    if (autofill && !autofill.signal.aborted) return;
    const controller = new AbortController();
    autofill = controller;
    try {
      if (!(await window.PublicKeyCredential?.isConditionalMediationAvailable?.())) return;
      const session = await Passkeys.post("/demo/sign-in", {});
      const { resultToken } = await Passkeys.authenticate(session, { mediation: "conditional", signal: controller.signal });
      await finish("/demo/sign-in/finish", { biometricPasskeySessionId: session.biometricPasskeySessionId, resultToken });
    } catch (error) {
      if (!controller.signal.aborted && error.code !== "ABORTED" && error.code !== "CANCELLED_OR_NONE") {
        Passkeys.showFailure(status, error);
      }
      controller.abort();
    }
  }
  document.getElementById("sign-in-name")?.addEventListener("focus", startAutofill);
})();
