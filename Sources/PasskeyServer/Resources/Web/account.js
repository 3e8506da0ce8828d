"use strict";
(() => {
  const status = document.getElementById("status");
  // The passkeys this site accepts for the user (the provider may hide others), their names, and a passkey
  // just deleted.
  const list = document.querySelector("ul.passkeys");
  const userHandle = list?.dataset.userHandle;
  if (userHandle) {
    const ids = [...document.querySelectorAll(".passkey")].map((item) => item.dataset.credentialId);
    Passkeys.signalAllAcceptedCredentials(userHandle, ids);
    Passkeys.signalCurrentUserDetails(userHandle, list.dataset.userName, list.dataset.displayName);
  }
  if (list?.dataset.unknownCredential) Passkeys.signalUnknownCredential(list.dataset.unknownCredential);
  document.getElementById("add-passkey")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const name = form.elements.name.value.trim();
      const attempt = await Passkeys.post("/demo/passkeys", name ? { name } : {});
      Passkeys.show(status, "info", "Follow your browser's prompt to create a passkey…");
      await Passkeys.register(attempt);
      const { redirect } = await Passkeys.post("/demo/passkeys/finish", { registrationAttemptId: attempt.registrationAttemptId });
      window.location.assign(redirect);
    } catch (error) {
      // Signed in already: the passkey on this device is the one in use, not one to sign in with.
      if (error?.code === "PASSKEY_ALREADY_EXISTS") {
        Passkeys.show(status, "error",
          "This device already has a passkey for your account, so there is nothing to add here. To add another, use another device or a security key.",
          error.code);
      } else Passkeys.showFailure(status, error);
    } finally { button.disabled = false; }
  });

  // Confirm a payment: a step-up whose challenge commits to the text shown.
  document.getElementById("confirm-payment")?.addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const session = await Passkeys.post("/demo/step-up", {});
      const { resultToken } = await Passkeys.authenticate(session, {
        confirm: async (transaction) => {
          const shown = document.getElementById("step-up-text");
          shown.textContent = transaction.text;
          shown.hidden = false;
          Passkeys.show(status, "info", "Check the payment above, then confirm with your passkey…");
          return true;
        },
      });
      const result = await Passkeys.post("/demo/step-up/finish", {
        biometricPasskeySessionId: session.biometricPasskeySessionId, resultToken,
      });
      document.getElementById("step-up-signed").textContent = result.transaction?.text ?? "";
      document.getElementById("step-up-digest").textContent = result.transaction?.digest ?? "";
      document.getElementById("step-up-assurance").textContent = result.assurance ?? "";
      document.getElementById("step-up-result").hidden = false;
      Passkeys.show(status, "ok", "Payment confirmed.");
    } catch (error) {
      Passkeys.showFailure(status, error);
    } finally { button.disabled = false; }
  });
})();
