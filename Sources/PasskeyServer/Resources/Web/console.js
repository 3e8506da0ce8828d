"use strict";
(() => {
  const status = document.getElementById("status");
  const button = document.getElementById("console-passkey");
  button?.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const session = await Passkeys.post("/console/sign-in/passkey", {});
      Passkeys.show(status, "info", "Waiting for your passkey…");
      const { resultToken } = await Passkeys.authenticate(session);
      const { redirect } = await Passkeys.post("/console/sign-in/passkey/finish", {
        biometricPasskeySessionId: session.biometricPasskeySessionId, resultToken,
      });
      window.location.assign(redirect ?? "/console");
    } catch (error) {
      Passkeys.showFailure(status, error);
    } finally {
      button.disabled = false;
    }
  });
})();
