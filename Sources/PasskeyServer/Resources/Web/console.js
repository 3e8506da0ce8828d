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

  // An operator's console passkey, added on their user page (by themselves, or in a break-glass session).
  const enrol = document.getElementById("enrol-console-passkey");
  enrol?.addEventListener("click", async () => {
    enrol.disabled = true;
    try {
      const path = enrol.dataset.path;
      const attempt = await Passkeys.post(path, {});
      Passkeys.show(status, "info", "Follow your browser's prompt to create the console passkey…");
      await Passkeys.register(attempt);
      const { redirect } = await Passkeys.post(path + "/finish", { registrationAttemptId: attempt.registrationAttemptId });
      window.location.assign(redirect);
    } catch (error) {
      Passkeys.showFailure(status, error);
    } finally {
      enrol.disabled = false;
    }
  });
})();
