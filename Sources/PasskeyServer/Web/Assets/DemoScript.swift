extension WebAssets {
    /// The demo page: sign up, sign in with or without a user name, and autofill sign-in (conditional mediation).
    /// The page's own server starts each flow and redeems its result, so no API key reaches the browser.
    static let demoScript = #"""
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
            run(form, () => signIn(form.elements.userName.value.trim()));
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
        """#

    /// The account page: add another passkey (renaming and deleting are plain forms).
    static let accountScript = #"""
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
              Passkeys.showFailure(status, error);
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
        """#
}
